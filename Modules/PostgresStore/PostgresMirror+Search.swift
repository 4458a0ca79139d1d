import MirrorStore

// MirrorStore, search: what the call does is said on the protocol.
extension PostgresMirror {
    /// Through PostgreSQL's full-text search (`jsonb_to_tsvector`, kept in `item_words` by
    /// ``updateSearchIndex(of:)``); a role that may not write searches the items unindexed.
    public func firstMatch(
        of query: String, in id: Int64, after position: ItemPosition?, backward: Bool, fields: RowFields
    ) async throws -> ItemRow? {
        let indexed = (try? await updateSearchIndex(of: id)) != nil
        return try await firstMatch(of: query, in: id, after: position, backward: backward, fields: fields, indexed: indexed)
    }

    /// Each item's words made as the index makes them (`jsonb_to_tsvector`), so a word matches as it
    /// does there; one statement, which reads every item up to the first match.
    public func firstMatchWithoutIndex(
        of query: String, in id: Int64, after position: ItemPosition?, backward: Bool, fields: RowFields
    ) async throws -> ItemRow? {
        try await firstMatch(of: query, in: id, after: position, backward: backward, fields: fields, indexed: false)
    }

    private func firstMatch(
        of query: String, in id: Int64, after position: ItemPosition?, backward: Bool, fields: RowFields, indexed: Bool
    ) async throws -> ItemRow? {
        guard let words = Self.textQuery(query) else { return nil }
        let from = position ?? ItemPosition(pageIndex: backward ? Int.max : -1, position: 0)
        let (comparison, order) = backward ? ("<", "DESC") : (">", "ASC")
        let matching = indexed ? "id IN (SELECT item_id FROM item_words WHERE collection_id = $1 AND words @@ to_tsquery('simple', $2))"
            : "jsonb_to_tsvector('simple', json, '[\"string\"]') @@ to_tsquery('simple', $2)"
        let match = "collection_id = $1 AND page_index >= 0 AND " + matching
        let ordered = " ORDER BY page_index \(order), position \(order) LIMIT 1"
        var binds = PostgresBindings()
        binds.append(id)
        binds.append(words)
        var after = binds
        after.append(from.pageIndex)
        after.append(from.position)
        if let row = try await rows(fields, match + " AND (page_index, position) \(comparison) ($3, $4)" + ordered, after).first {
            return row
        }
        return try await rows(fields, match + ordered, binds).first
    }

    /// Brings the collection's search words up to date as the SQLite mirror does its index (by the
    /// change number alone), one searcher at a time per collection (one read when nothing changed);
    /// returns whether it did.
    @discardableResult
    public func updateSearchIndex(of id: Int64) async throws -> Bool {
        // No notification: the items did not change.
        try await connection.transaction { transaction in
            try await transaction.query("SELECT pg_advisory_xact_lock(\(Self.searchLock), \(Int32(truncatingIfNeeded: id)))")
            let state = try await transaction.query("""
                SELECT c.change_sequence, s.sequence
                FROM collection c LEFT JOIN item_words_state s ON s.collection_id = c.id WHERE c.id = \(id)
                """).first.map { try $0.decode((Int, Int?).self) }
            guard let (sequence, indexedSequence) = state else { return false }
            let indexed = indexedSequence ?? -1
            guard indexed != sequence else { return false }
            try await transaction.query("""
                DELETE FROM item_words w WHERE w.collection_id = \(id) AND NOT EXISTS (
                    SELECT 1 FROM item i WHERE i.id = w.item_id AND i.page_index >= 0 AND i.changed_sequence <= \(indexed))
                """)
            try await transaction.query("""
                INSERT INTO item_words (item_id, collection_id, words)
                SELECT id, collection_id, jsonb_to_tsvector('simple', json, '["string"]') FROM item i
                WHERE i.collection_id = \(id) AND i.page_index >= 0
                    AND (i.changed_sequence > \(indexed) OR NOT EXISTS (SELECT 1 FROM item_words w WHERE w.item_id = i.id))
                ON CONFLICT (item_id) DO UPDATE SET words = excluded.words
                """)
            try await transaction.query("""
                INSERT INTO item_words_state (collection_id, sequence) VALUES (\(id), \(sequence))
                ON CONFLICT (collection_id) DO UPDATE SET sequence = excluded.sequence
                """)
            return true
        }
    }

    public func searchIndexIsCurrent(of id: Int64) async throws -> Bool {
        try await value("""
            SELECT c.change_sequence = coalesce(s.sequence, -1)
            FROM collection c LEFT JOIN item_words_state s ON s.collection_id = c.id WHERE c.id = \(id)
            """) ?? true
    }

    /// The words of `query` as a `tsquery` text: each a quoted lexeme (no operator of the
    /// user's text is read as one), all of them required, the last a prefix.
    static func textQuery(_ query: String) -> String? {
        let words = query.split(whereSeparator: \.isWhitespace).map { word in
            "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
        }
        guard !words.isEmpty else { return nil }
        return words.joined(separator: " & ") + ":*"
    }

    /// The first key of the advisory locks that serialise search index updates (Fresh's own number).
    private static let searchLock: Int32 = 0x6673_7263
}
