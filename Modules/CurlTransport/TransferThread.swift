import Foundation
import HTTPCache

/// A thread of its own for a task that sends one request after another, each waiting for the
/// one before (a sync's chain of pages): run the task on it with `Task(executorPreference:)`
/// and every transfer it makes through ``CurlTransport`` runs right there, on the thread that
/// asked. Elsewhere a transfer goes to a transfer queue's thread, which has to wake up to run
/// it and then wake the task again: two thread switches per request, tens of microseconds each
/// on a busy machine, on the path from one page to the next.
///
/// Jobs run one at a time, in order; a transfer blocks the thread, so only a task that waits
/// for its transfers anyway should prefer it. The preference passes to the task's structured
/// children (`async let`, task groups); start what should overlap on another executor (for
/// example with `Task(executorPreference: globalConcurrentExecutor)`).
public final class TransferThread: TaskExecutor, Sendable {
    private let thread: JobThread

    /// Starts the thread, named `name` (as `top -H` and debuggers show it).
    public init(name: String) {
        thread = JobThread(name: name) { pthread_setspecific(transferThreadKey, UnsafeRawPointer(bitPattern: 1)) }
    }

    /// Whether the calling thread is a transfer thread (where a transfer may block).
    static var isCurrent: Bool { pthread_getspecific(transferThreadKey) != nil }

    /// Runs `job` on the thread; once it has stopped, on the global concurrent executor (a task
    /// started from the thread that outlives it goes on there).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        if !thread.submit({ job.runSynchronously(on: executor) }) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Ends the thread once the jobs enqueued so far have run. A task that prefers the thread
    /// calls this as the last thing it does.
    public func stop() {
        thread.stop()
    }
}

/// Set (to any value but `nil`) on each transfer thread.
private let transferThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
