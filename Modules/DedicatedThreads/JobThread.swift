import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in order: the base of every thread here.
/// Between batches of jobs it waits on a semaphore, or, when it also drives I/O (a
/// ``TransferLoop``), in that I/O's own wait (see ``IdleWork``).
public final class JobThread: Sendable {
    private let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool)>(([], false))
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
            setUp()
            runJobs()
            tearDown()
        }
        thread.start()
    }

    /// Runs `job` on the thread after the jobs submitted before it; `false` (and nothing runs)
    /// once the thread has been stopped.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = jobs.withLock { jobs in
            guard !jobs.isStopped else { return false }
            jobs.waiting.append(job)
            return true
        }
        if accepted { idle.wake() }
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
                idle.wait()
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
