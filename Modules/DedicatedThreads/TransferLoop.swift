/// A thread that runs a task's jobs and, between them, drives that task's network transfers
/// without blocking: an event loop, as SwiftNIO's, for a chain of requests (a sync's pages).
///
/// Run a task on it with `Task(executorPreference:)`: a transfer it starts goes out at once, and
/// the thread runs whatever else is ready (the page before, being read) or waits for the transfers'
/// I/O, with no hand-off to another thread and back (the measurements: `DedicatedThreads.swift`).
///
/// The I/O belongs to the transport (``IdleWork``). Jobs run one at a time, in order; a job that
/// blocks stalls every transfer of the loop. The preference passes to the task's structured
/// children (`async let`, task groups), not to unstructured tasks: give those the loop explicitly.
public final class TransferLoop: TaskExecutor, Sendable {
    private let thread: JobThread

    /// Starts the loop's thread, named `name`, waiting on `io` between jobs; `setUp` runs on it
    /// first and `tearDown` last (the transport marks the thread as the loop's, then unmarks it).
    public init(name: String, io: any IdleWork, setUp: @escaping @Sendable () -> Void = {},
                tearDown: @escaping @Sendable () -> Void = {}) {
        thread = JobThread(name: name, idle: io, setUp: setUp, tearDown: tearDown)
    }

    /// Runs `job` on the loop; once it has stopped, on the global concurrent executor (a task
    /// started from the loop that outlives it goes on there).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        if !thread.submit({ job.runSynchronously(on: executor) }) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Runs `job` on the loop's thread, as ``JobThread/submit(_:)`` does.
    @discardableResult
    public func run(_ job: @escaping @Sendable () -> Void) -> Bool { thread.submit(job) }

    /// Ends the loop once the jobs enqueued so far have run and its transfers have finished.
    /// A task that prefers the loop calls this as the last thing it does.
    public func stop() { thread.stop() }
}
