import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in order: the base of every thread here.
/// Between batches of jobs it waits on a semaphore, or, when it also drives I/O (a
/// ``TransferLoop``), in that I/O's own wait (see ``IdleWork``).
public final class JobThread: Sendable {
    private struct Jobs {
        var waiting: [@Sendable () -> Void] = []
        var isStopped = false
        /// The thread's own id, once it has started.
        var thread: pthread_t?
    }

    private let jobs = Mutex(Jobs())
    private let idle: any IdleWork

    /// Starts the thread, named `name` (as `top -H` and debuggers show it); `setUp` runs on it
    /// first, `tearDown` last, after its last job. `idle` is what it does when no job waits (by
    /// default: nothing but wait for one).
    public init(name: String, idle: any IdleWork = WaitForJobs(), setUp: @escaping @Sendable () -> Void = {},
                tearDown: @escaping @Sendable () -> Void = {}) {
        self.idle = idle
        let thread = Thread { [self] in
            // Named from the thread itself: on Linux a name set before start() is not applied.
            Thread.current.name = name
            jobs.withLock { $0.thread = pthread_self() }
            setUp()
            runJobs()
            tearDown()
        }
        thread.start()
    }

    /// Runs `job` on the thread after the jobs submitted before it; `false` (and nothing runs)
    /// once the thread has been stopped.
    ///
    /// Only a job from another thread wakes the thread: one it gives itself (a task of a
    /// ``TransferLoop`` resuming another) is seen before it waits. A sync's page thread gives
    /// itself about six jobs a page, and a transfer loop's wake-up is a write to libcurl's socket
    /// pair that ends its next wait at once: a 1,000-page sync made 7,059 `sendto` calls (3,757
    /// of them failing) where it now makes 1,115, one request a page and a few wake-ups
    /// from the writer. Its time did not change measurably.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, fromItself) = jobs.withLock { jobs in
            guard !jobs.isStopped else { return (false, false) }
            jobs.waiting.append(job)
            return (true, jobs.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        if accepted && !fromItself { idle.wake() }
        return accepted
    }

    /// Ends the thread once the jobs submitted so far have run and its idle work is done.
    public func stop() {
        jobs.withLock { $0.isStopped = true }
        idle.wake()
    }

    private func runJobs() {
        while true {
            let (batch, isStopped) = jobs.withLock { jobs in
                defer { jobs.waiting.removeAll() }
                return (jobs.waiting, jobs.isStopped)
            }
            for job in batch { job() }
            let busy = idle.advance()
            if batch.isEmpty {
                if isStopped && !busy { return }
                // The jobs a batch or `advance()` gave the thread woke nothing: run them first.
                if jobs.withLock({ $0.waiting.isEmpty }) { idle.wait() }
            }
        }
    }
}

/// What a ``JobThread`` does between jobs.
public protocol IdleWork: Sendable {
    /// Moves work of its own on as far as it goes without waiting (called after each batch of
    /// jobs); returns whether any is still under way, which keeps a stopped thread alive.
    func advance() -> Bool
    /// Waits until there is something to do: a ``wake()``, or work of its own that is ready.
    func wait()
    /// Ends a ``wait()`` early, from any thread: a job arrived, or the thread is stopping.
    func wake()
}

/// The plain idle work: none, and a semaphore to wait for the next job.
public final class WaitForJobs: IdleWork {
    private let signal = DispatchSemaphore(value: 0)

    public init() {}

    public func advance() -> Bool { false }
    public func wait() { signal.wait() }
    public func wake() { signal.signal() }
}
