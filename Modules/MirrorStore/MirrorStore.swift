/// The mirror: every collection a sync keeps, its pages and its items, as the JSON the server
/// sent, in `Storage`'s SQLite file or `PostgresStore`'s database, both shaped for a server
/// database (every call is `async`, locks and live changes are the store's own).
///
/// Each part of Fresh asks for the role it plays, never for more:
/// - ``MirrorReading``: what read-outs and readers read (collections, items, rows, search);
/// - ``CollectionEditing``: what a sync or a command records about a collection;
/// - ``PassWriting``: the pass protocol a sync writes pages with;
/// - ``MirrorMaintenance``: where it is, whether it is sound, and closing it;
/// - ``ShownMarks``: the reader's own marks of what its user has seen.
///
/// The guarantees an implementation keeps:
/// - a page's items and its record are written in one transaction (``PassWriting/writePages(_:of:pass:now:)``),
///   so a sync stopped anywhere leaves whole pages;
/// - an unfinished pass can be resumed (``PassWriting/startPass(of:restart:now:)``), and only a
///   complete one deletes what no page listed (``PassWriting/finishPass(_:of:lastPage:removingUnlisted:recording:now:)``);
/// - one sync of a collection at a time, across processes (``PassWriting/lock(collection:onWait:)``);
/// - a damaged store is never written to (it throws `StorageError.corrupted`).
public typealias MirrorStore = MirrorReading & CollectionEditing & PassWriting & MirrorMaintenance & ShownMarks

/// What a sync needs of the mirror: no maintenance, no reader's marks.
public typealias SyncStore = MirrorReading & CollectionEditing & PassWriting

/// A collection's sync lock, held until released or deinitialised (or its process ends).
public protocol CollectionLock: Sendable {
    /// Lets the next sync of the collection go on.
    func release() async
}

/// Whether a store changed since the last look: cheap enough to ask on every screen tick.
public protocol ChangeWatch: Sendable {
    /// Whether anyone wrote to the store since the last call (or since the watch began).
    func hasChanged() throws -> Bool
}
