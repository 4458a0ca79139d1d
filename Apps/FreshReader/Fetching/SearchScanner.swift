import MirrorStore
import SyncEngine
import Synchronization

/// A collection's first search, answered without waiting for its search index: the items are
/// read in order from the selection (``MirrorReading/firstMatchWithoutIndex(of:in:after:backward:fields:)``)
/// in the background while ``SearchIndexer`` builds the index, and the match is posted back. A word
/// common in the collection is found in milliseconds; one no item holds reads every item (about
/// five seconds at a million, against half a minute for the index). A mirror opened read-only keeps
/// no index, so each of its searches runs here. One search at a time: a new one cancels the one
/// before; quitting cancels it between two batches of rows.
final class SearchScanner: Sendable {
    private let store: any MirrorStore
    private let work: BackgroundWork
    private let done: @Sendable (_ search: ReaderState.PendingSearch, _ match: Int64?, _ failure: String?) -> Void
    private let running = Mutex<Task<Void, Never>?>(nil)

    init(store: any MirrorStore, work: BackgroundWork,
         done: @escaping @Sendable (_ search: ReaderState.PendingSearch, _ match: Int64?, _ failure: String?) -> Void) {
        self.store = store
        self.work = work
        self.done = done
    }

    /// Starts `search` from the item at `position` (the top when `nil`).
    func search(_ search: ReaderState.PendingSearch, after position: ItemPosition?) {
        let task = Task { [store, done] in
            do {
                // Only the match's id is wanted: the screen reads its row with the window around it.
                let match = try await store.firstMatchWithoutIndex(of: search.query, in: search.collectionID, after: position,
                                                                   backward: search.backward, fields: RowFields(title: [], subtitle: []))
                if !Task.isCancelled { done(search, match?.id, nil) }
            } catch is CancellationError {
            } catch {
                if !Task.isCancelled { done(search, nil, ErrorDescription.line(error)) }
            }
        }
        running.withLock { running in
            running?.cancel()
            running = task
        }
        work.track(task)
    }
}
