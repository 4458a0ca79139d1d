import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in order, below the process's priority:
/// for database work that should not take a core from the threads that wait on the network.
/// (Its jobs block for milliseconds, so they stay off Swift's cooperative pool, which has one
/// thread per core.)
public final class BackgroundThread: Sendable {
    /// How far below the process the thread runs. Either is one-way: an unprivileged thread
    /// cannot raise its priority again, so each use gets a thread of its own.
    public enum Priority: Sendable {
        /// Linux thread niceness this much higher than the process's: the thread that waits on
        /// the network gets the core first when it wakes, and this one takes the time left.
        case lowered(by: Int32)
        /// `SCHED_IDLE`: only when a core would otherwise idle. For work that may wait as long
        /// as the machine is busy without harm.
        case idle
    }

    private let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool)>(([], false))
    private let jobArrived = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` (as `top -H` and debuggers show it).
    public init(name: String, priority: Priority) {
        let thread = Thread { [self] in
            // Named from the thread itself: on Linux a name set before start() is not applied.
            Thread.current.name = name
            Self.lower(to: priority)
            runJobs()
        }
        thread.start()
    }

    /// Runs `body` on the thread and returns what it returned or threw.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `job` on the thread after the jobs submitted before it.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.waiting.append(job) }
        jobArrived.signal()
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

    /// `SCHED_IDLE` of <sched.h>, which Glibc's Swift module does not export.
    private static let schedulingPolicyIdle: Int32 = 5

    private static func lower(to priority: Priority) {
        switch priority {
        case .lowered(let niceness):
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            // With 0, setpriority on Linux sets the calling thread's niceness, not the process's.
            _ = setpriority(which, 0, getpriority(which, 0) + niceness)
        case .idle:
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), schedulingPolicyIdle, &parameters)
        }
    }
}
