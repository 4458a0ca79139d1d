import GRDB
import JSON
import MirrorStore

// MirrorStore, reading items: what each call does is said on the protocol.
extension SQLiteMirror {
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

    public func itemCount(in collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0", arguments: [collectionID]) ?? 0
        }
    }
}
