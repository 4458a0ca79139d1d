import Foundation
import GRDB
import Pagination

/// One stored item: its key, the JSON the server sent (without insignificant whitespace), and
/// where it stands in the collection.
public struct StoredItem: Sendable, Equatable {
    public var key: ItemKey
    public var json: String
    public var pageIndex: Int
    public var position: Int
    /// The page write that created the item, and the last one that changed its JSON.
    public var createdSequence: Int
    public var changedSequence: Int

    init(row: Row) {
        key = ItemKey(databaseValue: row["key"])
        json = row["json"]
        pageIndex = row["pageIndex"]
        position = row["position"]
        createdSequence = row["createdSequence"]
        changedSequence = row["changedSequence"]
    }
}

/// A condition on one JSON member of an item, as `fresh items --where` takes it:
/// `author=민지`, `status!=draft`, `title~swift` (contains, ignoring case).
public struct ItemFilter: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case equals = "="
        case notEquals = "!="
        case contains = "~"
    }

    public var path: JSONPath
    public var comparison: Comparison
    public var value: String

    public init(path: JSONPath, comparison: Comparison, value: String) {
        self.path = path
        self.comparison = comparison
        self.value = value
    }

    /// Parses `NAME=VALUE`, `NAME!=VALUE` or `NAME~VALUE` (NAME may be a dotted path).
    public init?(parsing text: String) {
        for comparison in [Comparison.notEquals, .equals, .contains] {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            let name = String(text[..<range.lowerBound])
            guard let path = JSONPath(parsing: name), !path.isRoot else { return nil }
            self.init(path: path, comparison: comparison, value: String(text[range.upperBound...]))
            return
        }
        return nil
    }

    /// The SQL condition and its arguments. A member compares as its text: `5` matches the
    /// number 5 and the string "5", `true` matches the boolean.
    var sql: (String, [any DatabaseValueConvertible]) {
        let member = "coalesce(CASE json_type(json, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' "
            + "ELSE CAST(json_extract(json, ?) AS TEXT) END, '')"
        let path = self.path.sqlitePath
        switch comparison {
        case .equals: return ("\(member) = ?", [path, path, value])
        case .notEquals: return ("\(member) != ?", [path, path, value])
        case .contains: return ("instr(lower(\(member)), lower(?)) > 0", [path, path, value])
        }
    }
}

extension ItemDatabase {
    /// Calls `body` with each current item of the collection in the server's order (page, then
    /// position), reading them as it goes so memory stays flat however large the collection.
    public func forEachItem(
        in collectionID: Int64, filters: [ItemFilter] = [], limit: Int? = nil, _ body: (StoredItem) throws -> Void
    ) throws {
        var conditions = ["collectionID = ?", "pageIndex >= 0"]
        var arguments: [any DatabaseValueConvertible] = [collectionID]
        for filter in filters {
            let (condition, values) = filter.sql
            conditions.append(condition)
            arguments += values
        }
        var sql = "SELECT \(ItemKey.column), json, pageIndex, position, createdSequence, changedSequence FROM item WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY pageIndex, position"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try rows.next() { try body(StoredItem(row: row)) }
        }
    }

    /// The collection's items now and after every change written through this database
    /// object (a refresh in the same process).
    public func observeItems(in collectionID: Int64) -> AsyncValueObservation<[StoredItem]> {
        ValueObservation
            .tracking { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(ItemKey.column), json, pageIndex, position, createdSequence, changedSequence FROM item
                    WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position
                    """, arguments: [collectionID]).map(StoredItem.init(row:))
            }
            .removeDuplicates()
            .values(in: pool)
    }

    /// The number of current items of a collection.
    public func itemCount(in collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0", arguments: [collectionID]) ?? 0
        }
    }
}
