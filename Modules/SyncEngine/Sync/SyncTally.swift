import Synchronization

/// The run's ``SyncSummary``, shared by the loop that writes pages and the task fetching the next.
final class SyncTally: Sendable {
    private let summary = Mutex(SyncSummary())

    @discardableResult
    func update<T>(_ change: (inout SyncSummary) -> T) -> T { summary.withLock { change(&$0) } }
}
