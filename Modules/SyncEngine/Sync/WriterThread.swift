import Dispatch
import Foundation
import Synchronization

/// A thread of its own for a sync's SQLite writes. They block for milliseconds at a time, so
/// they stay off Swift's cooperative pool (two threads on a two-core machine), and they run a
/// little below normal priority (`nice` +``niceness``): the thread that waits on the network
/// gets the core first, the next request goes out at once, and the writer, which has pages
/// queued, takes the time left. Jobs run one at a time, in order.
final class WriterThread: Sendable {
    /// How much lower than the process the writer runs (Linux thread niceness).
    static let niceness: Int32 = 5

    private let jobs = Mutex<(waiting: [@Sendable () -> Void], isStopped: Bool)>(([], false))
    private let jobArrived = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            // Named from the thread itself: on Linux a name set before start() is not applied.
            Thread.current.name = "fresh.writer"
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + Self.niceness)
            runJobs()
        }
        thread.start()
    }

    /// Runs `body` on the thread and returns what it returned or threw.
    func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Ends the thread once the jobs submitted so far have run.
    func stop() {
        jobs.withLock { $0.isStopped = true }
        jobArrived.signal()
    }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.waiting.append(job) }
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
