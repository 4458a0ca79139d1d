import JSON
import MirrorStore

// MirrorStore, reading items and windows of rows: what each call does is said on the protocol.
extension PostgresMirror {
    /// The count a pass's end kept while it holds (see `keepCount`), or a count through the index.
    public func itemCount(in id: Int64) async throws -> Int {
        try await value("""
            SELECT coalesce(
                (SELECT k.count FROM item_count k JOIN collection c ON c.id = k.collection_id
                 WHERE k.collection_id = \(id) AND k.change_sequence = c.change_sequence),
                (SELECT count(*) FROM item WHERE collection_id = \(id) AND page_index >= 0))
            """) ?? 0
    }

    public func forEachItem(in id: Int64, filters: [ItemFilter], limit: Int?, _ body: (StoredItem) throws -> Void) async throws {
        var binds = PostgresBindings()
        binds.append(id)
        var conditions = ["collection_id = $1", "page_index >= 0"]
        for filter in filters {
            binds.append(filter.value)
            conditions.append(filter.postgresCondition(argument: binds.count))
        }
        var sql = "SELECT \(StoredItem.columns) FROM item WHERE " + conditions.joined(separator: " AND ") + " ORDER BY page_index, position"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        try await connection.forEachRow(PostgresQuery(unsafeSQL: sql, binds: binds)) { try body(try StoredItem(row: $0)) }
    }

    public func item(id: Int64) async throws -> StoredItem? {
        try await connection.query("SELECT \(unescaped: StoredItem.columns) FROM item WHERE id = \(id) AND page_index >= 0")
            .first.map(StoredItem.init(row:))
    }

    public func firstItemJSON(in id: Int64) async throws -> String? {
        try await value("""
            SELECT coalesce(exact_text, json::text) FROM item WHERE collection_id = \(id) AND page_index >= 0 ORDER BY page_index, position LIMIT 1
            """, as: String.self).map(JSONText.compact)
    }

    public func largestValue(of member: JSONPath, in id: Int64) async throws -> String? {
        // jsonb orders numbers by value and strings by text; the text of the largest is sent.
        try await value("""
            SELECT json #>> \(unescaped: member.postgresPath) FROM item
            WHERE collection_id = \(id) AND page_index >= 0 AND json #> \(unescaped: member.postgresPath) IS NOT NULL
                AND jsonb_typeof(json #> \(unescaped: member.postgresPath)) IN ('string', 'number')
            ORDER BY json #> \(unescaped: member.postgresPath) DESC LIMIT 1
            """, as: String.self)
    }

    public func rows(in id: Int64, from start: ItemPosition?, limit: Int, fields: RowFields) async throws -> [ItemRow] {
        let start = start ?? ItemPosition(pageIndex: 0, position: Int.min)
        return try await rows(fields, "collection_id = $1 AND (page_index, position) >= ($2, $3) ORDER BY page_index, position LIMIT $4",
                              bindings(id, start.pageIndex, start.position, max(0, limit)))
    }

    public func rows(in id: Int64, before end: ItemPosition, limit: Int, fields: RowFields) async throws -> [ItemRow] {
        try await rows(fields, """
            collection_id = $1 AND page_index >= 0 AND (page_index, position) < ($2, $3) ORDER BY page_index DESC, position DESC LIMIT $4
            """, bindings(id, end.pageIndex, end.position, max(0, limit))).reversed()
    }

    public func rows(in id: Int64, atOffset offset: Int, limit: Int, fields: RowFields) async throws -> [ItemRow] {
        try await rows(fields, "collection_id = $1 AND page_index >= 0 ORDER BY page_index, position LIMIT $2 OFFSET $3",
                       bindings(id, max(0, limit), max(0, offset)))
    }

    public func ordinal(of position: ItemPosition, in id: Int64) async throws -> Int {
        try await value("""
            SELECT count(*) FROM item WHERE collection_id = \(id) AND page_index >= 0 AND (page_index, position) < (\(position.pageIndex), \(position.position))
            """) ?? 0
    }

    /// The rows that `condition` (with its ordering and limit) selects.
    func rows(_ fields: RowFields, _ condition: String, _ binds: PostgresBindings) async throws -> [ItemRow] {
        try await connection.query(PostgresQuery(unsafeSQL: fields.postgresSelect + " WHERE " + condition, binds: binds))
            .map(ItemRow.init(row:))
    }

    /// A collection's id, then numbers, as the `$1`, `$2`, … of a statement.
    func bindings(_ id: Int64, _ values: Int...) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(id)
        for value in values { binds.append(value) }
        return binds
    }
}
