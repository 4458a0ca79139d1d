import Foundation
import GRDB
import MirrorStore

// MirrorStore, search: what each call does is said on the protocol.
extension SQLiteMirror {
    /// Brings the collection's full-text index up to date (docs/reader.md): the items written since
    /// are indexed (their string values, split into words), the items gone or changed since dropped.
    /// Costs two row reads when no page was written since. Returns whether it did anything. An item
    /// removed since (no page write) keeps its entry until the next write: it matches no item row.
    ///
    /// The collection's items are indexed ``searchIndexBatch`` row ids at a time, each batch a
    /// transaction of its own on the writer thread: the first search of a million items, one
    /// transaction, held 620 MiB (69 MiB in batches of 10,000, and 24 s instead of 19 s: smaller
    /// batches cost more merging). A sync writing meanwhile is safe: what it changed carries a later
    /// change number, indexed next time; its writes go between the batches. Cancelling the task
    /// stops the work between two batches; the next update drops what it had indexed (items
    /// changed since the state it left) and indexes them again.
    @discardableResult
    public func updateSearchIndex(of collectionID: Int64) async throws -> Bool {
        if isReadOnly { return false }  // nothing can be written: it keeps no index
        let (indexed, sequence) = try searchIndexState(of: collectionID)
        guard indexed != sequence else { return false }
        let ids: (first: Int64, last: Int64) = try read { db in
            let range = try Row.fetchOne(db, sql: "SELECT min(id) AS first, max(id) AS last FROM item WHERE collectionID = ?",
                                         arguments: [collectionID])
            return ((range?["first"] as Int64?) ?? 0, (range?["last"] as Int64?) ?? 0)
        }
        try await onWriterThread { [self] in
            try write { db in
                try db.execute(sql: """
                    DELETE FROM itemText WHERE collectionID = ?1 AND NOT EXISTS (
                        SELECT 1 FROM item WHERE item.id = itemText.rowid AND pageIndex >= 0 AND changedSequence <= ?2)
                    """, arguments: [collectionID, indexed])
            }
        }
        for start in stride(from: ids.first - 1, through: ids.last, by: Self.searchIndexBatch) {
            try Task.checkCancellation()
            try await onWriterThread { [self] in
                try write { db in
                    // A batch reads its items once and appends to the index: a small cache does it in
                    // the same time, and the page writes that come between batches get theirs back.
                    try db.execute(sql: "PRAGMA cache_size = -\(Self.searchIndexCacheKibibytes)")
                    defer { try? db.execute(sql: "PRAGMA cache_size = -\(DatabaseFile.cacheKibibytes)") }
                    try db.execute(sql: """
                        INSERT INTO itemText (rowid, text, collectionID)
                        SELECT id, (SELECT group_concat(value, ' ') FROM json_tree(item.json) WHERE type = 'text'), collectionID
                        FROM item WHERE id > ?3 AND id <= ?4 AND collectionID = ?1 AND pageIndex >= 0
                            AND (changedSequence > ?2 OR NOT EXISTS (SELECT 1 FROM itemText WHERE itemText.rowid = item.id))
                        """, arguments: [collectionID, indexed, start, start + Int64(Self.searchIndexBatch)])
                }
            }
        }
        try await onWriterThread { [self] in
            try write { db in
                try db.execute(sql: """
                    INSERT INTO itemTextState (collectionID, sequence) VALUES (?, ?)
                    ON CONFLICT (collectionID) DO UPDATE SET sequence = excluded.sequence
                    """, arguments: [collectionID, sequence])
            }
        }
        return true
    }

    public func searchIndexIsCurrent(of collectionID: Int64) throws -> Bool {
        if isReadOnly { return false }  // it keeps no index: every search reads the items
        let (indexed, sequence) = try searchIndexState(of: collectionID)
        return indexed == sequence
    }

    /// The page write the index is up to date with (-1: none), and the collection's last.
    private func searchIndexState(of collectionID: Int64) throws -> (indexed: Int, sequence: Int) {
        try read { db in
            let indexed = try Int.fetchOne(db, sql: "SELECT sequence FROM itemTextState WHERE collectionID = ?", arguments: [collectionID])
            let sequence = try Int.fetchOne(db, sql: "SELECT changeSequence FROM collection WHERE id = ?", arguments: [collectionID])
            return (indexed ?? -1, sequence ?? 0)
        }
    }

    /// Row ids indexed in one transaction by ``updateSearchIndex(of:)``.
    static let searchIndexBatch = 10_000
    /// The writer's page cache while it indexes, not ``DatabaseFile/cacheKibibytes``: a reader's first
    /// search at 1,000,000 items peaked at 64.3 MiB with the whole cache and 57.3 MiB with this, the
    /// index built in the same time (26.0 and 26.5 s; bench-reader's search round).
    static let searchIndexCacheKibibytes = 2 * 1024

    public func firstMatch(
        of query: String, in collectionID: Int64, after position: ItemPosition?, backward: Bool = false, fields: RowFields
    ) async throws -> ItemRow? {
        // A mirror opened read-only cannot keep the index: its search reads the items.
        if isReadOnly { return try await firstMatchWithoutIndex(of: query, in: collectionID, after: position, backward: backward, fields: fields) }
        try await updateSearchIndex(of: collectionID)
        guard let expression = Self.indexQuery(query) else { return nil }
        let from = position ?? ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        let otherEnd = ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        let (comparison, order) = backward ? ("<", "DESC") : (">", "ASC")
        let match: ItemPosition? = try read { db in
            // `+pageIndex`: a filter, not the index range, so the range is the row value's and a
            // search from the middle of a million items starts there, not at the first.
            let rows = "SELECT id, pageIndex, position FROM item WHERE collectionID = ?1 AND +pageIndex >= 0"
            let ordered = " ORDER BY pageIndex \(order), position \(order)"
            let past = " AND (pageIndex, position) \(comparison) (?3, ?4)"
            let position = { (row: Row) in ItemPosition(pageIndex: row[1], position: row[2]) }
            let arguments = { (start: ItemPosition) -> StatementArguments in [collectionID, expression, start.pageIndex, start.position] }
            // A word common in the collection matches near the start: the next rows' ids are read,
            // and the index is asked only within their range, which it seeks to in each word's list
            // of rows (a few milliseconds). Not when the ids are spread (items moved, or written at
            // different times): the range would be most of the index.
            func nearby(after start: ItemPosition) throws -> ItemPosition? {
                let batch = try Row.fetchAll(db, sql: rows + past + ordered + " LIMIT \(Self.searchNearbyRows)", arguments: arguments(start))
                let ids = batch.map { $0[0] as Int64 }
                guard let low = ids.min(), let high = ids.max(), high - low < Int64(4 * Self.searchNearbyRows) else { return nil }
                let matching = try Set(Int64.fetchAll(db, sql: "SELECT rowid FROM itemText WHERE itemText MATCH ? AND rowid BETWEEN ? AND ?",
                                                      arguments: [expression, low, high]))
                return batch.first { matching.contains($0[0]) }.map(position)
            }
            // Past them, the word's whole list of rows is built: 45 ms at a million for a word in a
            // third of the items on the machine of the first bench-reader, 100 ms on a slower one.
            func anywhere(after start: ItemPosition) throws -> ItemPosition? {
                try Row.fetchOne(db, sql: rows + " AND id IN (SELECT rowid FROM itemText WHERE itemText MATCH ?2)" + past + ordered + " LIMIT 1",
                                 arguments: arguments(start)).map(position)
            }
            // That list is built even over an empty range: from the last item (`G`, then `/`) go
            // round to the top at once.
            let anythingPast = try Bool.fetchOne(db, sql: "SELECT 1 FROM item WHERE collectionID = ?1 AND +pageIndex >= 0" + past + " LIMIT 1",
                                                 arguments: arguments(from)) ?? false
            let start = anythingPast ? from : otherEnd
            if let found = try nearby(after: start) ?? anywhere(after: start) { return found }
            // Round from the other end to the start: the start itself may be the only match.
            return anythingPast ? try anywhere(after: otherEnd) : nil
        }
        return try match.flatMap { try rows(in: collectionID, from: $0, limit: 1, fields: fields).first }
    }

    /// Rows after the start whose range of ids a search asks of the index before it builds the
    /// word's whole list of rows (``firstMatch(of:in:after:backward:fields:)``).
    static let searchNearbyRows = 2_000

    /// Reads the items in order from `position`, ``searchScanBatch`` rows at a time, and matches
    /// each word of `query` as text (ASCII letters in either case) in the item's string values.
    /// The index matches whole words (the last as a prefix) in any case and without diacritics, so
    /// the two can differ: `cache` finds "precache" here, and `cafe` finds "café" only there.
    public func firstMatchWithoutIndex(
        of query: String, in collectionID: Int64, after position: ItemPosition?, backward: Bool = false, fields: RowFields
    ) async throws -> ItemRow? {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        let start = position ?? ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        // Past `start` to the end, then from the other end up to `start` (itself included: it may
        // be the only match), as the index's search wraps around.
        var match = try await scanForMatch(words, in: collectionID, past: start, through: nil, backward: backward)
        if match == nil {
            let otherEnd = ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
            match = try await scanForMatch(words, in: collectionID, past: otherEnd, through: start, backward: backward)
        }
        return try match.flatMap { try rows(in: collectionID, from: $0, limit: 1, fields: fields).first }
    }

    /// The first item past `start` (up to `end`, included) whose string values hold every word, a
    /// batch of rows (one read) at a time: the task can be cancelled between two.
    private func scanForMatch(
        _ words: [String], in collectionID: Int64, past start: ItemPosition, through end: ItemPosition?, backward: Bool
    ) async throws -> ItemPosition? {
        let (comparison, order) = backward ? ("<", "DESC") : (">", "ASC")
        let through = end == nil ? "" : " AND (pageIndex, position) \(backward ? ">=" : "<=") (?4, ?5)"
        // Each word's number among the arguments: after the collection and the two positions.
        let first = end == nil ? 4 : 6
        let numbered = words.indices.map { "?\(first + $0)" }
        // The string values' text, read only where it can match: the JSON holds each word as it is
        // (lower() folds ASCII on both sides), unless a `\u` escape spells a character another way.
        // A word with a character JSON may escape (`"`, `\`, `/`) is not looked for in the JSON.
        let inJSON = zip(words, numbered).filter { word, _ in !word.contains(where: { "\"\\/".contains($0) }) }
            .map { "instr(lower(json), lower(\($0.1))) > 0" }
        let readable = inJSON.isEmpty ? "1" : "instr(json, '\\u') > 0 OR (" + inJSON.joined(separator: " AND ") + ")"
        let sql = """
            SELECT pageIndex, position, \(numbered.map { "instr(text, lower(\($0))) > 0" }.joined(separator: " AND ")) AS matched
            FROM (SELECT pageIndex, position,
                         CASE WHEN \(readable) THEN (SELECT lower(group_concat(value, ' ')) FROM json_tree(item.json) WHERE type = 'text') END AS text
                  FROM item WHERE collectionID = ?1 AND +pageIndex >= 0 AND (pageIndex, position) \(comparison) (?2, ?3)\(through)
                  ORDER BY pageIndex \(order), position \(order) LIMIT \(Self.searchScanBatch))
            """
        var from = start
        while true {
            try Task.checkCancellation()
            var arguments: [any DatabaseValueConvertible] = [collectionID, from.pageIndex, from.position]
            if let end { arguments += [end.pageIndex, end.position] }
            arguments += words
            let batch = try read { db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)) }
            for row in batch where (row["matched"] as Bool?) == true {
                return ItemPosition(pageIndex: row["pageIndex"], position: row["position"])
            }
            guard batch.count == Self.searchScanBatch, let last = batch.last else { return nil }
            from = ItemPosition(pageIndex: last["pageIndex"], position: last["position"])
        }
    }

    /// Rows read at a time by ``firstMatchWithoutIndex(of:in:after:backward:fields:)``.
    static let searchScanBatch = 5_000

    /// `query` as an FTS5 expression: each word a quoted string (no operators from the user's
    /// text), the last a prefix; `nil` for no words.
    private static func indexQuery(_ query: String) -> String? {
        let words = query.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ") + "*"
    }
}
