import Foundation
import GRDB
import MirrorStore

// MirrorStore, search: what each call does is said on the protocol.
extension SQLiteMirror {
    /// Brings the collection's full-text index up to date (docs/reader.md): the items written since
    /// are indexed (their string values, split into words), the items gone since dropped. Costs
    /// nothing when nothing changed; the first time, one pass inside SQLite. Returns whether it did.
    @discardableResult
    public func updateSearchIndex(of collectionID: Int64) throws -> Bool {
        try write { db in
            let state = try Row.fetchOne(db, sql: "SELECT sequence, itemCount FROM itemTextState WHERE collectionID = ?",
                                         arguments: [collectionID])
            let indexed: Int = state?["sequence"] ?? -1
            let sequence = try Int.fetchOne(db, sql: "SELECT changeSequence FROM collection WHERE id = ?", arguments: [collectionID]) ?? 0
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0", arguments: [collectionID]) ?? 0
            guard indexed != sequence || state?["itemCount"] != count else { return false }
            try db.execute(sql: """
                DELETE FROM itemText WHERE collectionID = ?1
                    AND rowid NOT IN (SELECT id FROM item WHERE collectionID = ?1 AND pageIndex >= 0 AND changedSequence <= ?2)
                """, arguments: [collectionID, indexed])
            try db.execute(sql: """
                INSERT INTO itemText (rowid, text, collectionID)
                SELECT id, (SELECT group_concat(value, ' ') FROM json_tree(item.json) WHERE type = 'text'), collectionID
                FROM item WHERE collectionID = ?1 AND pageIndex >= 0
                    AND (changedSequence > ?2 OR id NOT IN (SELECT rowid FROM itemText WHERE collectionID = ?1))
                """, arguments: [collectionID, indexed])
            try db.execute(sql: """
                INSERT INTO itemTextState (collectionID, sequence, itemCount) VALUES (?, ?, ?)
                ON CONFLICT (collectionID) DO UPDATE SET sequence = excluded.sequence, itemCount = excluded.itemCount
                """, arguments: [collectionID, sequence, count])
            return true
        }
    }

    public func firstMatch(
        of query: String, in collectionID: Int64, after position: ItemPosition?, backward: Bool = false, fields: RowFields
    ) throws -> ItemRow? {
        let indexed = !isReadOnly
        if indexed { try updateSearchIndex(of: collectionID) }
        guard let condition = matchCondition(query, indexed: indexed) else { return nil }
        let from = position ?? ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        let (comparison, order) = backward ? ("<", "DESC") : (">", "ASC")
        return try read { db in
            let select = rowSelect(fields) + " WHERE collectionID = ?1 AND pageIndex >= 0 AND \(condition.sql)"
            let ordered = " ORDER BY pageIndex \(order), position \(order) LIMIT 1"
            let arguments: [any DatabaseValueConvertible] = [collectionID, condition.argument]
            if let row = try Row.fetchOne(db, sql: select + " AND (pageIndex, position) \(comparison) (?3, ?4)" + ordered,
                                          arguments: StatementArguments(arguments + [from.pageIndex, from.position])) {
                return ItemRow(row: row)
            }
            return try Row.fetchOne(db, sql: select + ordered, arguments: StatementArguments(arguments)).map(ItemRow.init(row:))
        }
    }

    private func matchCondition(_ query: String, indexed: Bool) -> (sql: String, argument: String)? {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        if indexed {
            // Each word a quoted FTS5 string (no operators from the user's text), the last a prefix.
            let expression = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ") + "*"
            return ("id IN (SELECT rowid FROM itemText WHERE itemText MATCH ?2)", expression)
        }
        return ("instr(lower(json), lower(?2)) > 0", query)
    }
}
