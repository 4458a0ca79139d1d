import Foundation
import JSON

/// The mirror: every collection a sync keeps, its pages and its items, as the JSON the server
/// sent. This is the interface every part of Fresh goes through (the sync that writes, the
/// command-line read-outs, the reader); `Storage`'s SQLite mirror is its first implementation,
/// and it is shaped for a server database too (every call is `async`, locks and live changes
/// are the store's own).
///
/// The guarantees an implementation keeps:
/// - a page's items and its record are written in one transaction (``writePages(_:of:pass:now:)``),
///   so a sync stopped anywhere leaves whole pages;
/// - an unfinished pass can be resumed (``startPass(of:restart:now:)``), and only a complete one
///   deletes what no page listed (``finishPass(_:of:lastPage:removingUnlisted:now:)``);
/// - one sync of a collection at a time, across processes (``lock(collection:onWait:)``);
/// - a damaged store is never written to (it throws ``StorageError/corrupted(path:reason:)``).
public protocol MirrorStore: AnyObject, Sendable {
    /// Where the store is, as messages show it (a file's path; a server address without a password).
    var location: String { get }

    // MARK: Collections

    /// Every collection, by name.
    func collections() async throws -> [CollectionRecord]
    /// The collection with `id`.
    func collection(id: Int64) async throws -> CollectionRecord?
    /// The collection called exactly `name`.
    func collection(named name: String) async throws -> CollectionRecord?
    /// Every collection with the figures `fresh collections` shows.
    func summaries() async throws -> [CollectionSummary]
    /// Creates a collection called `name` (or, when that name is taken, `name-2`, `name-3`, …)
    /// for the first page at `url`.
    func createCollection(preferredName name: String, url: String, now: Date) async throws -> CollectionRecord
    /// Deletes a collection with its pages and items; returns how many items it held.
    @discardableResult
    func deleteCollection(_ id: Int64) async throws -> Int
    /// Stores how the collection's pages are read (a pagination plan, as JSON) and its first page's URL.
    func setPlan(_ plan: String, url: String, of id: Int64) async throws
    /// Keeps the header fields the collection's later syncs send (JSON, see
    /// ``CollectionRecord/headers``; `nil` for none).
    func rememberHeaders(_ headers: String?, of id: Int64) async throws
    /// Forgets a collection's plan and pages and starts a new pass; its items stay until that
    /// pass ends.
    func resetPlan(of id: Int64) async throws
    /// Records how the last sync of a collection ended (`nil`: it succeeded or stopped cleanly).
    func recordSyncEnd(of id: Int64, error: String?, at date: Date) async throws
    /// Keeps the collection's `--since PARAM=MEMBER` for its later syncs by name (`nil`: whole passes).
    func rememberSince(_ since: String?, of id: Int64) async throws
    /// Records the kind of the run that just ended (``CollectionRecord/lastPassKind``).
    func recordPassKind(_ kind: String, of id: Int64) async throws
    /// Gives a collection another name (a source adopting it).
    /// - Throws: ``StorageError`` when another collection has the name.
    func renameCollection(_ id: Int64, to name: String) async throws
    /// Records that a reader showed the collection as it was after page write `sequence`.
    func markShown(_ id: Int64, upTo sequence: Int) async throws

    // MARK: Passes: what a sync writes

    /// Takes the collection's sync lock (its identity: see `CollectionIdentity`), waiting while
    /// another process holds it; `onWait` hears once, with the holder when known, if it must wait.
    func lock(collection identity: String, onWait: @escaping @Sendable (String?) -> Void) async throws -> any CollectionLock
    /// Resumes the collection's unfinished pass, or starts a new one (`restart`, or the last
    /// pass finished).
    func startPass(of id: Int64, restart: Bool, now: Date) async throws -> PassPosition
    /// Every stored page record of a collection, by index, each with the number of items the
    /// mirror holds for it now (``PageRecord/presentCount``).
    func pages(of id: Int64) async throws -> [Int: PageRecord]
    /// The URLs of a collection's pages that no other collection's pages share.
    func pageURLs(onlyIn id: Int64) async throws -> [String]
    /// Writes pages of one pass, in order, each in full or not at all, and returns what each
    /// changed. A page whose ``PageContent/items`` are `nil` is current: only its pass is
    /// recorded. Otherwise its items are upserted by key (an unchanged item keeps its change
    /// number), the items it no longer lists are set aside until the pass ends, and its record
    /// is replaced.
    /// - Throws: ``DuplicateKey`` when a page lists a key another page of this pass already
    ///   listed; the pages before it are written, that page and the rest are not.
    func writePages(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) async throws -> [PageWrite]
    /// Starts a new pass over the pages of a pass that ended by resuming (they are read again,
    /// from the first, before it may count as complete), without giving the last one up:
    /// ``joinPass(_:of:pagesFrom:)`` adds the pages read since the resume once the pages before
    /// them are read. Returns the new pass.
    func revisitPass(of id: Int64, now: Date) async throws -> Int
    /// Makes the pages from `index` on that the pass before `pass` read part of `pass` (the
    /// pages a resumed pass read after its stop, when its revisit came back to them).
    func joinPass(_ pass: Int, of id: Int64, pagesFrom index: Int) async throws
    /// Writes the items a catch-up found at the front of a listing that moved during pass
    /// `pass`: on the first page, before its items, at positions from `firstPosition` on (which
    /// sort before any page's own), in order. An item a page of this pass lists already is left
    /// where it is (counted as ``PageWrite/repeated``); an item the collection holds elsewhere
    /// moves here. Nothing else changes: no page record, nothing set aside.
    func writeCaughtUp(_ items: [(key: ItemKey, json: Data)], of id: Int64, pass: Int, firstPosition: Int, now: Date) async throws -> PageWrite
    /// Merges the items of an incremental run: an item the collection holds is updated where it
    /// stands, a new one is added after the last. Nothing is removed or set aside.
    func mergeItems(_ items: [(key: ItemKey, json: Data)], of id: Int64, now: Date) async throws -> PageWrite
    /// Gives up the current pass without deleting anything: the next sync starts a new one.
    func abandonPass(of id: Int64) async throws
    /// Ends a pass whose last page is `lastPage`: deletes the pages it did not read and those
    /// beyond its last, and the items no page of the pass lists (only the pages when
    /// `removingUnlisted` is false); returns how many items were deleted.
    func finishPass(_ pass: Int, of id: Int64, lastPage: Int, removingUnlisted: Bool, now: Date) async throws -> Int

    // MARK: Reading: what read-outs and readers read

    /// The number of current items of a collection.
    func itemCount(in id: Int64) async throws -> Int
    /// Calls `body` with each current item in the server's order (page, then position),
    /// reading them as it goes so memory stays flat however large the collection.
    func forEachItem(in id: Int64, filters: [ItemFilter], limit: Int?, _ body: (StoredItem) throws -> Void) async throws
    /// The item with row id `id`, if it is still current.
    func item(id: Int64) async throws -> StoredItem?
    /// The JSON of the collection's first item, to choose which members rows show.
    func firstItemJSON(in id: Int64) async throws -> String?
    /// The largest value of `member` among the collection's current items (numbers by value,
    /// strings by text), as text: a string without its quotes, a number as written; `nil` when
    /// no item has one. What an incremental sync sends.
    func largestValue(of member: JSONPath, in id: Int64) async throws -> String?
    /// Up to `limit` rows from `start` on (`start` included; the first row when `nil`).
    func rows(in id: Int64, from start: ItemPosition?, limit: Int, fields: RowFields) async throws -> [ItemRow]
    /// Up to `limit` rows before `end` (excluded), in the server's order.
    func rows(in id: Int64, before end: ItemPosition, limit: Int, fields: RowFields) async throws -> [ItemRow]
    /// Up to `limit` rows from the `offset`-th (0 for the first).
    func rows(in id: Int64, atOffset offset: Int, limit: Int, fields: RowFields) async throws -> [ItemRow]
    /// How many items come before `position` (its row number, from 0).
    func ordinal(of position: ItemPosition, in id: Int64) async throws -> Int
    /// The first item after `position` (or before it, going `backward`) whose string values hold
    /// every word of `query` (the last one as a prefix), wrapping around at the end.
    func firstMatch(of query: String, in id: Int64, after position: ItemPosition?, backward: Bool, fields: RowFields) async throws -> ItemRow?

    // MARK: Live changes and health

    /// Tells a screen when anyone (another process included) has written to the store.
    func watchChanges() async throws -> any ChangeWatch
    /// What a consistency check finds: empty when the store is sound.
    func problems() async throws -> [String]
    /// Ends this process's use of the store (its connections); call it once, when a command is done.
    func close() async
}

/// A collection's sync lock, held until released or deinitialised (and by a process that dies,
/// never past its end).
public protocol CollectionLock: Sendable {
    /// Lets the next sync of the collection go on.
    func release() async
}

/// Whether a store changed since the last look: cheap enough to ask on every screen tick.
public protocol ChangeWatch: Sendable {
    /// Whether anyone wrote to the store since the last call (or since the watch began).
    func hasChanged() throws -> Bool
}

extension MirrorStore {
    /// The collection a user means by `name`: the one called exactly that, else the only one
    /// whose name differs from it in letter case alone (a name made from a URL is lower-cased,
    /// so `Users` finds the collection of `/api/Users`); `nil` when none, or several, match.
    public func collection(meaning name: String) async throws -> CollectionRecord? {
        if let exact = try await collection(named: name) { return exact }
        let folded = name.lowercased()
        let matches = try await collections().filter { $0.name.lowercased() == folded }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Runs `body` holding the collection's sync lock (``lock(collection:onWait:)``), released
    /// however `body` ends.
    public func withLock<Value>(
        collection identity: String, onWait: @escaping @Sendable (String?) -> Void, _ body: () async throws -> Value
    ) async throws -> Value {
        let lock = try await lock(collection: identity, onWait: onWait)
        do {
            let value = try await body()
            await lock.release()
            return value
        } catch {
            await lock.release()
            throw error
        }
    }

    /// ``forEachItem(in:filters:limit:_:)`` over every current item.
    public func forEachItem(in id: Int64, _ body: (StoredItem) throws -> Void) async throws {
        try await forEachItem(in: id, filters: [], limit: nil, body)
    }
}
