import Foundation
import MirrorStore

/// One row of an item list as the reader keeps it: which item, where it stands (the keyset
/// for the next window), and the text it shows.
public struct ListRow: Sendable, Equatable {
    /// The item's row id: stable while the item exists.
    public var id: Int64
    /// Its key as messages show it (`57`, `"abc"`): what names an item without a title.
    public var key: String
    /// Its place in the collection (page, position on the page).
    public var at: ItemPosition
    /// The title member's text, when the item has it.
    public var title: String?
    /// The second field (author, user, date), when the item has it.
    public var subtitle: String?
    /// The page write that last created or changed it (for "new or changed" marks).
    public var changedSequence = 0
}

/// One collection as the collection list shows it.
public struct CollectionEntry: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// The first page's URL.
    public var url: String
    public var itemCount: Int
    /// When a sync last ran.
    public var lastSync: Date?
    /// Why the last refresh failed, if it did.
    public var lastError: String?
    /// Whether a next page may be fetched: never synced, or the last pass stopped before the end.
    public var hasNextPage: Bool
    /// Page writes so far: rows changed by a later write are new or changed since then.
    public var changeSequence = 0
    /// The ``changeSequence`` the reader last showed the collection at (in any run); `nil`: never.
    public var shownSequence: Int?

    /// What the collection list says of its state: stale, error, never synced, partial or synced.
    public var status: String {
        if let lastError { return itemCount > 0 ? "stale (last refresh failed: \(lastError))" : "error: \(lastError)" }
        if lastSync == nil && itemCount == 0 { return "never synced" }
        return hasNextPage ? "partial" : "synced"
    }
}

/// What the reader reads from storage, a window at a time. ``StoredLibrary`` reads the item
/// database; tests use one in memory.
public protocol ReaderLibrary: Sendable {
    /// Every collection, by name.
    func collections() throws -> [CollectionEntry]
    /// One collection, read a window at a time.
    func open(_ collectionID: Int64) throws -> any CollectionReading
}

/// The rows of one collection, read by keyset (from or before a row's position) or by offset,
/// never all at once.
public protocol CollectionReading: Sendable {
    /// The collection as it is now.
    /// - Throws: ``CollectionRemoved`` when another process removed it (`fresh rm`).
    func entry() throws -> CollectionEntry
    /// Up to `limit` rows from `start` (included; `nil`: the first row).
    func rows(from start: ItemPosition?, limit: Int) throws -> [ListRow]
    /// Up to `limit` rows before `end` (excluded), in order.
    func rows(before end: ItemPosition, limit: Int) throws -> [ListRow]
    /// Up to `limit` rows from the `offset`-th.
    func rows(atOffset offset: Int, limit: Int) throws -> [ListRow]
    /// The row number of the item with `id`, if it still exists.
    func ordinal(ofItem id: Int64) throws -> Int?
    /// The item's JSON, if it still exists.
    func json(ofItem id: Int64) throws -> String?
    /// The next item (or previous, `backward`) after `row` whose text holds every word of
    /// `query`, wrapping around; `nil` when none does.
    func firstMatch(of query: String, after row: ListRow?, backward: Bool) throws -> ListRow?
    /// Whether ``firstMatch(of:after:backward:)`` would answer at once: the collection's search
    /// index is up to date. When not, the reader has it brought up to date in the background first.
    func searchIsReady() throws -> Bool
    /// Records that the collection was shown as it was after page write `sequence`, so the
    /// next run marks only what changed after it (best effort: nothing is lost without it).
    func markShown(upTo sequence: Int)
}

/// The open collection is no longer stored: another process removed it (`fresh rm`).
public struct CollectionRemoved: Error, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "the collection was removed" }
}
