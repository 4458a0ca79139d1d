import MirrorStore

/// The first search's background half: brings a collection's search index up to date (every
/// item the first time: about half a minute at a million items) while the screen stays live,
/// and says when it is done; the reader then runs the search that waited for it. Never twice
/// at once for a collection: the reader asks again only once the last one said it was done
/// (see `ReaderState.pendingSearch`). Quitting cancels it between two batches.
struct SearchIndexer: Sendable {
    let store: any MirrorStore
    let work: BackgroundWork
    let done: @Sendable (_ collectionID: Int64) -> Void

    /// Starts bringing collection `id`'s search index up to date in the background.
    func update(_ id: Int64) {
        work.track(Task {
            // A failure is the search's to say: it runs next, and meets it again, or searches
            // unindexed (a PostgreSQL role that may not write).
            _ = try? await store.updateSearchIndex(of: id)
            if !Task.isCancelled { done(id) }
        })
    }
}
