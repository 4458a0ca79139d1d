import Foundation

/// A thread of its own that runs jobs one at a time, in order, below the process's priority:
/// for database work that should not take a core from the threads that wait on the network
/// (the mirror's writer, its background checkpoints).
public final class BackgroundThread: Sendable {
    private let thread: JobThread

    /// Starts the thread, named `name` (as `top -H` and debuggers show it), at a Linux thread
    /// niceness `niceness` higher than the process's: the thread that waits on the network gets
    /// the core first when it wakes, and this one takes the time left. It is one-way (an
    /// unprivileged thread cannot raise its priority again), so each use gets a thread of its own.
    public init(name: String, loweredBy niceness: Int32) {
        thread = JobThread(name: name, setUp: { Self.lower(by: niceness) })
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

    private static func lower(by niceness: Int32) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        // With 0, setpriority on Linux sets the calling thread's niceness, not the process's.
        _ = setpriority(which, 0, getpriority(which, 0) + niceness)
    }
}
