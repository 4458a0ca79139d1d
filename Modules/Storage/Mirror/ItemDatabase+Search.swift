import Foundation
import GRDB
import Pagination
import Synchronization

extension ItemDatabase {
    /// Brings the collection's full-text index up to date: the items written since it was last
    /// brought up to date are indexed (their string values, split into words), the items gone
    /// since are dropped. Costs nothing when nothing changed; the first time, one pass over the
    /// items inside SQLite. Returns whether anything was done.
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

    /// The first item after `position` (or before it, going `backward`) whose string values
    /// hold every word of `query` (the last one as a prefix), wrapping around at the end.
    /// - Parameter indexed: search the full-text index (brought up to date first); `false`
    ///   searches the items' text in SQLite without it, for a database that cannot be written.
    public func firstMatch(
        of query: String, in collectionID: Int64, after position: ItemPosition?, backward: Bool = false,
        indexed: Bool = true, fields: RowFields
    ) throws -> ItemRow? {
        let condition = try matchCondition(query, indexed: indexed)
        guard let condition else { return nil }
        let from = position ?? ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        let (comparison, order) = backward ? ("<", "DESC") : (">", "ASC")
        return try read { db in
            let select = "SELECT id, \(ItemKey.column), pageIndex, position, createdSequence, changedSequence, "
                + "\(RowFields.expression(fields.title)) AS title, \(RowFields.expression(fields.subtitle)) AS subtitle "
                + "FROM item WHERE collectionID = ?1 AND pageIndex >= 0 AND \(condition.sql)"
            let ordered = " ORDER BY pageIndex \(order), position \(order) LIMIT 1"
            let arguments: [any DatabaseValueConvertible] = [collectionID, condition.argument]
            if let row = try Row.fetchOne(db, sql: select + " AND (pageIndex, position) \(comparison) (?3, ?4)" + ordered,
                                          arguments: StatementArguments(arguments + [from.pageIndex, from.position])) {
                return ItemRow(row: row)
            }
            return try Row.fetchOne(db, sql: select + ordered, arguments: StatementArguments(arguments)).map(ItemRow.init(row:))
        }
    }

    /// How many items match `query` (see ``firstMatch(of:in:after:backward:indexed:fields:)``).
    public func matchCount(of query: String, in collectionID: Int64, indexed: Bool = true) throws -> Int {
        guard let condition = try matchCondition(query, indexed: indexed) else { return 0 }
        return try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ?1 AND pageIndex >= 0 AND \(condition.sql)",
                             arguments: [collectionID, condition.argument]) ?? 0
        }
    }

    private func matchCondition(_ query: String, indexed: Bool) throws -> (sql: String, argument: String)? {
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

/// Tells whether another connection (another process, or this one's writer) changed the item
/// database since the last look, for a screen that shows a window of it: SQLite's
/// `PRAGMA data_version` on a connection of its own, a check that reads no table.
public final class ChangeWatcher: Sendable {
    private let connection: DatabaseQueue
    private let lastVersion: Mutex<Int>

    public init(database: ItemDatabase) throws {
        var configuration = Configuration()
        configuration.readonly = true
        connection = try DatabaseQueue(path: database.path, configuration: configuration)
        lastVersion = Mutex(try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0)
    }

    /// Whether the database changed since the last call (or since this watcher was made).
    public func hasChanged() throws -> Bool {
        let version = try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } ?? 0
        return lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }
}
