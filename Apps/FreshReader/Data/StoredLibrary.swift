import Foundation
import Pagination
import Storage
import SyncEngine

/// The reader's view of the item database: collections and windows of rows, through the
/// indexed window reads of ``ItemDatabase`` (an index range and `LIMIT`, never a whole table).
public struct StoredLibrary: ReaderLibrary {
    let database: ItemDatabase
    /// The member rows are titled with (`--title`), or `nil` to choose from the items.
    let title: JSONPath?
    /// Whether the full-text index may be brought up to date (not in a read-only directory).
    let canIndex: Bool

    public init(database: ItemDatabase, title: JSONPath?, canIndex: Bool) {
        self.database = database
        self.title = title
        self.canIndex = canIndex
    }

    public func collections() throws -> [CollectionEntry] {
        // Counts through the order index; no item JSON is read.
        try database.collections().map { CollectionEntry($0, itemCount: try database.itemCount(in: $0.id)) }
    }

    public func open(_ collectionID: Int64) throws -> any CollectionReading {
        let fields = ItemFields.choose(for: try database.firstItemJSON(in: collectionID), title: title)
        return StoredCollection(database: database, collectionID: collectionID, fields: fields, canIndex: canIndex)
    }
}

/// One collection of the item database, read a window at a time.
struct StoredCollection: CollectionReading {
    let database: ItemDatabase
    let collectionID: Int64
    let fields: RowFields
    let canIndex: Bool

    func entry() throws -> CollectionEntry {
        guard let record = try database.collection(id: collectionID) else {
            throw StorageError.failed("the collection was deleted")
        }
        return CollectionEntry(record, itemCount: try database.itemCount(in: collectionID))
    }

    func rows(from start: ItemPosition?, limit: Int) throws -> [ListRow] {
        try database.rows(in: collectionID, from: start, limit: limit, fields: fields).map(ListRow.init)
    }

    func rows(before end: ItemPosition, limit: Int) throws -> [ListRow] {
        try database.rows(in: collectionID, before: end, limit: limit, fields: fields).map(ListRow.init)
    }

    func rows(atOffset offset: Int, limit: Int) throws -> [ListRow] {
        try database.rows(in: collectionID, atOffset: offset, limit: limit, fields: fields).map(ListRow.init)
    }

    func ordinal(ofItem id: Int64) throws -> Int? {
        guard let item = try database.item(id: id) else { return nil }
        return try database.ordinal(of: ItemPosition(pageIndex: item.pageIndex, position: item.position), in: collectionID)
    }

    func json(ofItem id: Int64) throws -> String? {
        try database.item(id: id)?.json
    }

    func markShown(upTo sequence: Int) throws {
        try database.markShown(collectionID, upTo: sequence)
    }

    func firstMatch(of query: String, after row: ListRow?, backward: Bool) throws -> ListRow? {
        if canIndex { try database.updateSearchIndex(of: collectionID) }
        return try database.firstMatch(of: query, in: collectionID, after: row?.at, backward: backward, indexed: canIndex, fields: fields)
            .map(ListRow.init)
    }
}

extension ListRow {
    init(_ row: ItemRow) {
        self.init(id: row.id, key: row.key.description, at: row.at, title: row.title, subtitle: row.subtitle,
                  changedSequence: row.changedSequence)
    }
}

extension CollectionEntry {
    init(_ record: CollectionRecord, itemCount: Int) {
        self.init(id: record.id, name: record.name, url: record.url, itemCount: itemCount,
                  lastSync: record.lastSyncAt.map(Date.init(timeIntervalSince1970:)), lastError: record.lastError,
                  hasNextPage: record.plan == nil || !record.passComplete, changeSequence: record.changeSequence,
                  shownSequence: record.shownSequence)
    }
}
