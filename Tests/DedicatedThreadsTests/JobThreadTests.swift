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
    /// in flight does.
    final class CountedWork: IdleWork, @unchecked Sendable {
        private let rounds = Mutex(0)
        private let wakeUp = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let busyRounds: Int

        init(busyRounds: Int) { self.busyRounds = busyRounds }

        var advanced: Int { rounds.withLock { $0 } }

        func advance() -> Bool {
            let round = rounds.withLock { rounds in
                rounds += 1
                return rounds
            }
            if round == busyRounds { finished.signal() }
            return round < busyRounds
        }

        func wait() { wakeUp.wait() }
        func wake() { wakeUp.signal() }
    }

    @Test func aStoppedThreadKeepsGoingWhileItsIdleWorkIsUnderWay() {
        let work = CountedWork(busyRounds: 5)
        let thread = JobThread(name: "test.idle-work", idle: work)
        thread.stop()
        // The thread advances its work until the work says it is done, then ends.
        work.finished.wait()
        #expect(work.advanced == 5)
    }
}
