import JSON

/// The mirror as read-outs and readers read it: current items in the server's order, whole or as rows.
public protocol MirrorReading: AnyObject, Sendable {
    // MARK: Collections

    /// Every collection, by name.
    func collections() async throws -> [CollectionRecord]
    /// The collection with `id`.
    func collection(id: Int64) async throws -> CollectionRecord?
    /// The collection called exactly `name`.
    func collection(named name: String) async throws -> CollectionRecord?
    /// Every collection with the figures `fresh collections` shows.
    func summaries() async throws -> [CollectionSummary]

    // MARK: Items

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

    // MARK: Rows of a screen

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
    /// ``firstMatch(of:in:after:backward:fields:)`` without the search index, up to date or not:
    /// the items are read in order from `position`, a batch at a time (cancelling the task stops it
    /// between two), so a first search answers while the index is being built. How a word matches
    /// may differ from the index's: each store says how.
    func firstMatchWithoutIndex(of query: String, in id: Int64, after position: ItemPosition?, backward: Bool,
                                fields: RowFields) async throws -> ItemRow?
    /// Whether ``firstMatch(of:in:after:backward:fields:)`` would answer at once: the collection's
    /// search index is up to date with its items. A store that keeps no index (a SQLite mirror
    /// opened read-only) says false: each of its searches reads the items, which at a million
    /// takes seconds, so a screen runs it in the background as it does a first search.
    func searchIndexIsCurrent(of id: Int64) async throws -> Bool
    /// Brings the collection's search index up to date, as a search does first; returns whether
    /// there was anything to index (false at once from a store that keeps no index). The first
    /// time, every item is indexed (about half a minute at a million items), so a screen runs it
    /// in the background and searches once it is done.
    func updateSearchIndex(of id: Int64) async throws -> Bool

    // MARK: Pages, as a replay serves them

    /// The stored pages whose URL is exactly `url`, in any collection, each with its envelope.
    func recordedPages(at url: String) async throws -> [RecordedPage]
    /// The URLs of a collection's stored pages, by page index.
    func pageURLs(of id: Int64) async throws -> [String]
    /// The JSON text of the current items of page `index` of a collection, in the server's order.
    func itemJSON(onPage index: Int, of id: Int64) async throws -> [String]

    /// Tells a screen when anyone (another process included) has written to the store.
    func watchChanges() async throws -> any ChangeWatch
}

extension MirrorReading {
    /// The collection a user means by `name`: the one called exactly that, else the only one
    /// whose name differs from it in letter case alone (a name made from a URL is lower-cased,
    /// so `Users` finds the collection of `/api/Users`); `nil` when none, or several, match.
    public func collection(meaning name: String) async throws -> CollectionRecord? {
        if let exact = try await collection(named: name) { return exact }
        let folded = name.lowercased()
        let matches = try await collections().filter { $0.name.lowercased() == folded }
        return matches.count == 1 ? matches[0] : nil
    }

    /// ``forEachItem(in:filters:limit:_:)`` over every current item.
    public func forEachItem(in id: Int64, _ body: (StoredItem) throws -> Void) async throws {
        try await forEachItem(in: id, filters: [], limit: nil, body)
    }
}
