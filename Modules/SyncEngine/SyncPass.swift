import Foundation
import HTTPCache
import Synchronization

/// The state of one sync run: its settings, the page it is on, the cursors it has seen and
/// what it has cost so far. The paginator loads one page at a time, so the lock is never
/// contended; it makes the state safe to share with the loader closure.
final class SyncPass: Sendable {
    let resource: String
    let base: URL
    let limit: Int?
    let policy: CachePolicy
    let timeout: Duration?
    /// Names this run on every post it writes; see `ItemDatabase.finishSync`.
    let run = UUID().uuidString

    private struct Progress {
        var pageIndex = 0
        var seenCursors: Set<String> = []
        var summary = SyncSummary()
    }

    private let progress = Mutex(Progress())

    init(resource: String, base: URL, limit: Int?, policy: CachePolicy, timeout: Duration?) {
        self.resource = resource
        self.base = base
        self.limit = limit
        self.policy = policy
        self.timeout = timeout
    }

    /// The index of the page being loaded (0 for the first).
    var pageIndex: Int { progress.withLock { $0.pageIndex } }
    var summary: SyncSummary { progress.withLock { $0.summary } }

    func count(_ response: CachedResponse, items: Int) {
        progress.withLock { $0.summary.count(response, items: items) }
    }

    func recordDeleted(_ count: Int) {
        progress.withLock { $0.summary.deleted = count }
    }

    /// Moves to the page after `cursor`; `false` when the server sent that cursor before,
    /// which would loop forever.
    func advance(past cursor: String) -> Bool {
        progress.withLock { progress in
            guard progress.seenCursors.insert(cursor).inserted else { return false }
            progress.pageIndex += 1
            return true
        }
    }
}
