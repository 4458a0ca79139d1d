import MirrorStore
import Synchronization

/// The first search's background half: brings a collection's search index up to date (every
/// item the first time: about half a minute at a million items) while the screen stays live,
/// and says when it is done; the reader then runs the search that waited for it (see
/// `ReaderState.pendingSearch`). Never twice at once for a collection: an update asked for
/// while one runs is that one. Quitting cancels it between two batches.
final class SearchIndexer: Sendable {
    private let store: any MirrorStore
    private let work: BackgroundWork
    private let done: @Sendable (_ collectionID: Int64) -> Void
    private let running = Mutex<Set<Int64>>([])

    init(store: any MirrorStore, work: BackgroundWork, done: @escaping @Sendable (_ collectionID: Int64) -> Void) {
        self.store = store
        self.work = work
        self.done = done
    }

    /// Starts bringing collection `id`'s search index up to date in the background.
    func update(_ id: Int64) {
        guard running.withLock({ $0.insert(id).inserted }) else { return }
        work.track(Task { [self] in
            // A failure is the search's to say: it runs next, and meets it again, or searches
            // unindexed (a PostgreSQL role that may not write).
            _ = try? await store.updateSearchIndex(of: id)
            _ = running.withLock { $0.remove(id) }
            if !Task.isCancelled { done(id) }
        })
    }
}
