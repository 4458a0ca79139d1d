import Foundation
import GRDB
import Pagination

/// Where an item stands in its collection: its page, then its place on the page (the
/// server's order). Windows of rows are read from such a position through the order index.
public struct ItemPosition: Sendable, Hashable, Comparable {
    public var pageIndex: Int
    public var position: Int

    public init(pageIndex: Int, position: Int) {
        self.pageIndex = pageIndex
        self.position = position
    }

    public static func < (left: ItemPosition, right: ItemPosition) -> Bool {
        (left.pageIndex, left.position) < (right.pageIndex, right.position)
    }
}

/// One row of a list of items: what a screen shows of an item, read without its JSON.
public struct ItemRow: Sendable, Equatable {
    /// The item's row id: stable while the item exists, whatever page it moves to.
    public var id: Int64
    public var key: ItemKey
    public var at: ItemPosition
    /// The values of the title and subtitle members (see ``RowFields``), as text.
    public var title: String?
    public var subtitle: String?
    /// The page write that created the item, and the last one that changed its JSON.
    public var createdSequence: Int
    public var changedSequence: Int
}

/// The members a row shows: the first of ``title`` that the item has, and of ``subtitle``.
public struct RowFields: Sendable, Equatable {
    public var title: [JSONPath]
    public var subtitle: [JSONPath]

    public init(title: [JSONPath], subtitle: [JSONPath]) {
        self.title = title
        self.subtitle = subtitle
    }

    /// The SQL expression of the first present member of `paths` as text (`NULL` when none).
    static func expression(_ paths: [JSONPath]) -> String {
        guard !paths.isEmpty else { return "NULL" }
        let parts = paths.map { path in
            let quoted = path.sqlitePath.replacingOccurrences(of: "'", with: "''")
            return "CASE json_type(json, '\(quoted)') WHEN 'object' THEN NULL WHEN 'array' THEN NULL "
                + "ELSE CAST(json_extract(json, '\(quoted)') AS TEXT) END"
        }
        return parts.count == 1 ? parts[0] : "coalesce(\(parts.joined(separator: ", ")))"
    }
}

extension ItemDatabase {
    /// Up to `limit` rows from `start` on (`start` itself included), in the server's order.
    public func rows(in collectionID: Int64, from start: ItemPosition?, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields) + " WHERE collectionID = ? AND (pageIndex, position) >= (?, ?) ORDER BY pageIndex, position LIMIT ?"
            let start = start ?? ItemPosition(pageIndex: 0, position: Int.min)
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, start.pageIndex, start.position, max(0, limit)]).map(ItemRow.init(row:))
        }
    }

    /// Up to `limit` rows before `end` (excluded), in the server's order.
    public func rows(in collectionID: Int64, before end: ItemPosition, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?) ORDER BY pageIndex DESC, position DESC LIMIT ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, end.pageIndex, end.position, max(0, limit)])
                .map(ItemRow.init(row:)).reversed()
        }
    }

    /// Up to `limit` rows from the `offset`-th (0 for the first): for jumps (to the end, to a
    /// row number). Skipping walks the order index only, never the items.
    public func rows(in collectionID: Int64, atOffset offset: Int, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT ? OFFSET ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, max(0, limit), max(0, offset)]).map(ItemRow.init(row:))
        }
    }

    /// How many items come before `position` (its row number, from 0).
    public func ordinal(of position: ItemPosition, in collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?)
                """, arguments: [collectionID, position.pageIndex, position.position]) ?? 0
        }
    }

    /// The item with row id `id`, if it is still current.
    public func item(id: Int64) throws -> StoredItem? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(ItemKey.column), json, pageIndex, position, createdSequence, changedSequence FROM item WHERE id = ? AND pageIndex >= 0
                """, arguments: [id]).map(StoredItem.init(row:))
        }
    }

    /// The JSON of the collection's first item, to choose which members rows show.
    public func firstItemJSON(in collectionID: Int64) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT json FROM item WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT 1
                """, arguments: [collectionID])
        }
    }

    private func rowSelect(_ fields: RowFields) -> String {
        "SELECT id, \(ItemKey.column), pageIndex, position, createdSequence, changedSequence, "
            + "\(RowFields.expression(fields.title)) AS title, \(RowFields.expression(fields.subtitle)) AS subtitle FROM item"
    }
}

extension ItemRow {
    init(row: Row) {
        id = row["id"]
        key = ItemKey(databaseValue: row["key"])
        at = ItemPosition(pageIndex: row["pageIndex"], position: row["position"])
        title = row["title"]
        subtitle = row["subtitle"]
        createdSequence = row["createdSequence"]
        changedSequence = row["changedSequence"]
    }
}

extension ItemKey {
    /// The `key` column as a result column that keeps every byte of a text key: read as
    /// text, a key holding U+0000 would end there (GRDB reads text as a C string).
    static let column = "iif(typeof(key) = 'text', CAST(key AS BLOB), key) AS key"

    /// The key as SQLite stored it (a text key read through ``column`` comes as its bytes).
    init(databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .int64(let value): self = .integer(Int(value))
        case .string(let value): self = .string(value)
        case .double(let value): self = .string(String(value))
        case .blob(let data): self = .string(String(decoding: data, as: UTF8.self))
        case .null: self = .string("")
        }
    }

    /// The key as SQLite stores it: an integer or a text value (never converted into each other).
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }
}
