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
        for row in try await connection.query(PostgresQuery(unsafeSQL: BrokenPromise.itemsOnNoPageQuery)) {
            let (name, count) = try row.decode((String, Int).self)
            found.append(BrokenPromise.itemsOnNoPage(collection: name, count: count))
        }
        for row in try await connection.query(PostgresQuery(unsafeSQL: BrokenPromise.shortPagesQuery)) {
            let (name, index) = try row.decode((String, Int).self)
            found.append(BrokenPromise.shortPage(collection: name, pageIndex: index))
        }
        for row in try await connection.query(PostgresQuery(unsafeSQL: BrokenPromise.keptCountQuery)) {
            let (name, kept, stored) = try row.decode((String, Int, Int).self)
            found.append(BrokenPromise.keptCount(collection: name, kept: kept, stored: stored))
        }
        return found
    }
}
