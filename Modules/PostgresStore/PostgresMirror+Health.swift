import MirrorStore

// MirrorStore, health: what `fresh check` asks of a PostgreSQL mirror.
extension PostgresMirror {
    /// The server keeps its own files sound (damage there is PostgreSQL's to report, `amcheck`'s
    /// to find); this checks what the mirror promises: every migration applied, and what
    /// ``BrokenPromise`` lists, as the SQLite store checks it.
    public func problems() async throws -> [String] {
        var found: [String] = []
        let applied = Set(try await connection.query("SELECT name FROM migration").map { try $0.decode(String.self) })
        for migration in PostgresSchema.migrations where !applied.contains(migration.name) {
            found.append("migration \(migration.name) is not applied")
        }
        let orphans = try await connection.query("""
            SELECT c.name, count(*) FROM item i JOIN collection c ON c.id = i.collection_id
            WHERE i.page_index >= 0 AND c.pass_complete AND NOT EXISTS (
                SELECT 1 FROM page p WHERE p.collection_id = i.collection_id AND p.page_index = i.page_index)
            AND i.page_index < (SELECT max(p.page_index) FROM page p WHERE p.collection_id = i.collection_id)
            GROUP BY c.name ORDER BY c.name
            """)
        for row in orphans {
            let (name, count) = try row.decode((String, Int).self)
            found.append(BrokenPromise.itemsOnNoPage(collection: name, count: count))
        }
        let short = try await connection.query("""
            SELECT c.name, p.page_index FROM page p JOIN collection c ON c.id = p.collection_id
            WHERE c.pass_complete AND p.pass = c.pass AND p.content_pass = p.pass AND p.item_count > (
                SELECT count(*) FROM item i WHERE i.collection_id = p.collection_id AND i.page_index = p.page_index)
            ORDER BY c.name, p.page_index LIMIT 10
            """)
        for row in short {
            let (name, index) = try row.decode((String, Int).self)
            found.append(BrokenPromise.shortPage(collection: name, pageIndex: index))
        }
        let miscounted = try await connection.query("""
            SELECT name, kept, stored FROM (
                SELECT c.name, k.count AS kept,
                    (SELECT count(*) FROM item i WHERE i.collection_id = c.id AND i.page_index >= 0) AS stored
                FROM item_count k JOIN collection c ON c.id = k.collection_id AND k.change_sequence = c.change_sequence) counted
            WHERE kept != stored ORDER BY name
            """)
        for row in miscounted {
            let (name, kept, stored) = try row.decode((String, Int, Int).self)
            found.append(BrokenPromise.keptCount(collection: name, kept: kept, stored: stored))
        }
        return found
    }
}
