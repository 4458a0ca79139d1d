import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in order: the base of the threads that
/// block for milliseconds at a time (transfers, database writes), which stay off Swift's
/// cooperative pool (one thread per core).
public final class JobThread: Sendable {
    private let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool)>(([], false))
    private let jobArrived = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` (as `top -H` and debuggers show it); `setUp` runs on it
    /// first.
    public init(name: String, setUp: @escaping @Sendable () -> Void = {}) {
        let thread = Thread { [self] in
            // Named from the thread itself: on Linux a name set before start() is not applied.
            Thread.current.name = name
            setUp()
            runJobs()
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
        if accepted { jobArrived.signal() }
        return accepted
    }

    /// Ends the thread once the jobs submitted so far have run.
    public func stop() {
        jobs.withLock { $0.isStopped = true }
        jobArrived.signal()
    }

    private func runJobs() {
        while true {
            jobArrived.wait()
            let (batch, isStopped) = jobs.withLock { jobs in
                defer { jobs.waiting.removeAll() }
                return (jobs.waiting, jobs.isStopped)
            }
            for job in batch { job() }
            if isStopped { return }
        }
    }
}
