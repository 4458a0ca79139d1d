import DedicatedThreads
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("A thread of its own: jobs in order, idle work between them")
struct JobThreadTests {
    @Test func jobsRunInTheOrderTheyCame() {
        let thread = JobThread(name: "test.jobs")
        let order = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for number in 1...50 { thread.submit { order.withLock { $0.append(number) } } }
        thread.submit { done.signal() }
        done.wait()
        thread.stop()
        #expect(order.withLock { $0 } == Array(1...50))
    }

    @Test func aStoppedThreadRunsWhatCameBeforeAndRefusesTheRest() {
        let thread = JobThread(name: "test.stopped")
        let ran = DispatchSemaphore(value: 0)
        #expect(thread.submit { ran.signal() })
        thread.stop()
        ran.wait()
        #expect(!thread.submit {})
    }

    /// Idle work that reports itself busy for a number of rounds, as a transport with transfers
    /// in flight does; its `wait()` returns at once while it is busy (its I/O is ready).
    final class CountedWork: IdleWork, @unchecked Sendable {
        private let counts = Mutex((rounds: 0, waits: 0))
        private let wakeUp = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let busyRounds: Int

        init(busyRounds: Int) { self.busyRounds = busyRounds }

        var advanced: Int { counts.withLock { $0.rounds } }
        var waited: Int { counts.withLock { $0.waits } }

        func advance() -> Bool {
            let round = counts.withLock { counts in
                counts.rounds += 1
                return counts.rounds
            }
            if round == busyRounds { finished.signal() }
            return round < busyRounds
        }

        func wait() {
            let busy = counts.withLock { counts in
                counts.waits += 1
                return counts.rounds < busyRounds
            }
            if !busy { wakeUp.wait() }
        }

        func wake() { wakeUp.signal() }
    }

    @Test func aStoppedThreadKeepsGoingWhileItsIdleWorkIsUnderWay() {
        let work = CountedWork(busyRounds: 5)
        let thread = JobThread(name: "test.idle-work", idle: work)
        thread.stop()
        // The thread advances its work until the work says it is done, then ends. The thread may
        // have run all five rounds before it saw the stop: it then waits, and the stop's wake-up
        // makes one more round (which finds nothing to do) before it ends.
        work.finished.wait()
        #expect((5...6).contains(work.advanced))
    }

    /// With work under way and no job, the thread waits for that work's I/O instead of asking
    /// it again at once: a sync's transfer loop once spun on libcurl while a response was on
    /// its way, taking a core from the server it waited for.
    @Test func busyIdleWorkIsWaitedForNotSpunOn() {
        let work = CountedWork(busyRounds: 5)
        let thread = JobThread(name: "test.no-spin", idle: work)
        thread.stop()
        work.finished.wait()
        // One wait after each of the four busy rounds (and a fifth when stop() came late).
        #expect(work.waited >= 4)
    }

    /// Idle work that waits for a wake-up and counts them; `onAdvance` runs at each `advance()`.
    final class CountedWakes: IdleWork, @unchecked Sendable {
        private let wakeUp = DispatchSemaphore(value: 0)
        private let count = Mutex(0)
        let onAdvance = Mutex<(@Sendable () -> Void)?>(nil)

        var wakes: Int { count.withLock { $0 } }

        func advance() -> Bool {
            onAdvance.withLock { $0 }?()
            return false
        }

        func wait() { wakeUp.wait() }

        func wake() {
            count.withLock { $0 += 1 }
            wakeUp.signal()
        }
    }

    /// A transfer loop's tasks resume each other on its thread several times a page; each
    /// wake-up was a syscall on libcurl's socket pair, and the next wait ended at once.
    @Test func aJobTheThreadGivesItselfRunsWithoutWakingIt() {
        let work = CountedWakes()
        let thread = JobThread(name: "test.own-jobs", idle: work)
        let done = DispatchSemaphore(value: 0)
        thread.submit { thread.submit { thread.submit { done.signal() } } }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(work.wakes == 1)
        thread.stop()
    }

    /// A job given while the idle work advances (a finished transfer resuming its task) runs
    /// before the thread waits: no wake-up would end that wait.
    @Test func aJobGivenWhileTheIdleWorkAdvancesRunsBeforeTheThreadWaits() {
        let work = CountedWakes()
        let thread = JobThread(name: "test.advance-jobs", idle: work)
        let done = DispatchSemaphore(value: 0)
        let advances = Mutex(0)
        work.onAdvance.withLock { onAdvance in
            onAdvance = {
                // The first advance follows the job below; the second follows an empty batch, after
                // which the thread would wait.
                let count = advances.withLock { count in
                    count += 1
                    return count
                }
                if count == 2 { thread.submit { done.signal() } }
            }
        }
        thread.submit {}
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(work.wakes == 1)
        thread.stop()
    }
}
