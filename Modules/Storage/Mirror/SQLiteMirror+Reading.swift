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
        var sql = "SELECT \(StoredItem.columns) FROM item WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY pageIndex, position"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        try read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try rows.next() { try body(StoredItem(row: row)) }
        }
    }

    /// The count the last pass's end kept (``PassEnd/keptCount(of:db:)``) while no page was
    /// written since, else a count through the order index (318 ms at 10,000,000).
    public func itemCount(in collectionID: Int64) throws -> Int {
        try read { db in try PassEnd.keptCount(of: collectionID, db: db) ?? PassEnd.countItems(of: collectionID, db: db) }
    }

    public func largestValue(of member: JSONPath, in collectionID: Int64) throws -> String? {
        try read { db in
            let value = try DatabaseValue.fetchOne(db, sql: """
                SELECT json_extract(json, ?1) AS value FROM item
                WHERE collectionID = ?2 AND pageIndex >= 0 AND json_type(json, ?1) IN ('text', 'integer', 'real')
                ORDER BY value DESC LIMIT 1
                """, arguments: [member.sqlitePath, collectionID])
            switch value?.storage {
            case .int64(let number)?: return String(number)
            case .double(let number)?: return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .string(let text)?: return text
            default: return nil
            }
        }
    }
}
