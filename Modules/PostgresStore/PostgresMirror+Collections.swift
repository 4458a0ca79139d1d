import Foundation
import HTTPTypes
import MirrorStore
import Pagination
import StorageErrors

// MirrorStore, collections: what each call does is said on the protocol.
extension PostgresMirror {
    public func collections() async throws -> [CollectionRecord] {
        try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(CollectionRecord.columns) FROM collection ORDER BY name"))
            .map(CollectionRecord.init(row:))
    }

    public func collection(id: Int64) async throws -> CollectionRecord? {
        try await connection.query(selectCollection("id = $1", id)).first.map(CollectionRecord.init(row:))
    }

    public func collection(named name: String) async throws -> CollectionRecord? {
        try await connection.query(selectCollection("name = $1", name)).first.map(CollectionRecord.init(row:))
    }

    private func selectCollection(_ condition: String, _ value: some PostgresEncodable) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(value)
        return PostgresQuery(unsafeSQL: "SELECT \(CollectionRecord.columns) FROM collection WHERE \(condition)", binds: binds)
    }

    public func summaries() async throws -> [CollectionSummary] {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT \(CollectionRecord.columns), items.count, (SELECT count(*) FROM page p WHERE p.collection_id = c.id), items.bytes
            FROM collection c, LATERAL (
                SELECT count(*) AS count, coalesce(sum(pg_column_size(i.json)), 0) AS bytes
                FROM item i WHERE i.collection_id = c.id AND i.page_index >= 0) AS items
            ORDER BY name
            """))
        return try rows.map { row in
            let count = row.columns.count
            return CollectionSummary(collection: try CollectionRecord(row: row), itemCount: try row.decode(column: count - 3),
                                     pageCount: try row.decode(column: count - 2), bytes: try row.decode(column: count - 1))
        }
    }

    public func createCollection(preferredName name: String, url: String, now: Date) async throws -> CollectionRecord {
        try await write { transaction in
            // Another machine may take a name at the same moment: each candidate is inserted
            // or passed over in one statement.
            var suffix = 1
            while true {
                let candidate = suffix == 1 ? name : "\(name)-\(suffix)"
                let inserted = try await transaction.query("""
                    INSERT INTO collection (name, url, created_at) VALUES (\(candidate), \(url), \(now.timeIntervalSince1970))
                    ON CONFLICT (name) DO NOTHING RETURNING \(unescaped: CollectionRecord.columns)
                    """)
                if let row = inserted.first { return try CollectionRecord(row: row) }
                suffix += 1
            }
        }
    }

    @discardableResult
    public func deleteCollection(_ id: Int64) async throws -> Int {
        try await write { transaction in
            let count = try await transaction.query("SELECT count(*) FROM item WHERE collection_id = \(id)").first?.decode(Int.self) ?? 0
            // Items first (no foreign key, see PostgresSchema); pages go with the collection (CASCADE).
            try await transaction.query("DELETE FROM item WHERE collection_id = \(id)")
            try await transaction.query("DELETE FROM collection WHERE id = \(id)")
            return count
        }
    }

    public func setPlan(_ plan: PaginationPlan, url: String, of id: Int64) async throws {
        try await write { try await $0.query("UPDATE collection SET plan = \(StoredText.text(of: plan)), url = \(url) WHERE id = \(id)") }
    }

    public func rememberHeaders(_ fields: HTTPFields, of id: Int64) async throws {
        try await write { try await $0.query("UPDATE collection SET headers = \(StoredText.text(of: fields)) WHERE id = \(id)") }
    }

    public func resetPlan(of id: Int64) async throws {
        try await write { transaction in
            try await transaction.query("UPDATE collection SET plan = NULL, pass_complete = true WHERE id = \(id)")
            try await transaction.query("DELETE FROM page WHERE collection_id = \(id)")
        }
    }

    public func recordSyncEnd(of id: Int64, error: String?, at date: Date) async throws {
        try await write { try await $0.query("UPDATE collection SET last_sync_at = \(date.timeIntervalSince1970), last_error = \(error) WHERE id = \(id)") }
    }

    public func markShown(_ id: Int64, upTo sequence: Int) async throws {
        try await write { try await $0.query("UPDATE collection SET shown_sequence = \(sequence) WHERE id = \(id)") }
    }

    public func rememberSince(_ since: String?, of id: Int64) async throws {
        try await write { try await $0.query("UPDATE collection SET since = \(since), incremental_from = NULL WHERE id = \(id)") }
    }

    public func recordIncrementalStart(_ value: String, of id: Int64) async throws {
        try await write { try await $0.query("UPDATE collection SET incremental_from = \(value) WHERE id = \(id)") }
    }

    public func recordPassKind(_ kind: PassKind, of id: Int64) async throws {
        try await write { transaction in
            try await transaction.query("""
                UPDATE collection SET last_pass_kind = \(kind.rawValue),
                    incremental_from = CASE WHEN \(kind.rawValue) = 'incremental' THEN NULL ELSE incremental_from END
                WHERE id = \(id)
                """)
        }
    }

    public func renameCollection(_ id: Int64, to name: String) async throws {
        try await write { transaction in
            let taken = try await transaction.query("SELECT 1 FROM collection WHERE name = \(name) AND id != \(id)").first != nil
            if taken { throw StorageError.failed("a collection called '\(name)' exists already") }
            try await transaction.query("UPDATE collection SET name = \(name) WHERE id = \(id)")
        }
    }
}
