import Fetcher

/// What reaches the UI loop from outside the keyboard.
enum ReaderEvent: Sendable {
    /// A refresh of a collection moved on; `summary` says what a finished one changed.
    case refresh(collectionID: Int64, status: FetchState<CollectionEntry>.Status, summary: String?)
    /// A page load of a collection ended: `failure` is why it failed, `nil` when it was stored.
    case pageLoaded(collectionID: Int64, failure: String?)
    /// A background update of a collection's search index ended (see ``SearchIndexer``).
    case searchIndexUpdated(collectionID: Int64)
    /// A search without the index ended (see ``SearchScanner``): the item found, or why it failed.
    case searchedWithoutIndex(ReaderState.PendingSearch, match: Int64?, failure: String?)
    /// A signal (SIGINT, SIGTERM, SIGHUP) asks the reader to quit.
    case quit
}
