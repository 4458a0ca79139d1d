import Foundation

/// A thread of its own that runs jobs one at a time, in order, below the process's priority:
/// for database work that should not take a core from the threads that wait on the network
/// (the mirror's writer, its background checkpoints).
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

    private let thread: JobThread

    /// Starts the thread, named `name` (as `top -H` and debuggers show it).
    public init(name: String, priority: Priority) {
        thread = JobThread(name: name, setUp: { Self.lower(to: priority) })
    }

    /// Runs `body` on the thread and returns what it returned or threw.
    public func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            if !thread.submit({ continuation.resume(with: Result { try body() }) }) {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Runs `job` on the thread, as ``JobThread/submit(_:)`` does.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool { thread.submit(job) }

    /// Ends the thread once the jobs submitted so far have run.
    public func stop() { thread.stop() }

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
