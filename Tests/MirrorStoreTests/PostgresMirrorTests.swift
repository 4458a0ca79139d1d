import Foundation
import JSON
import MirrorStore
import PostgresStore
import Testing

/// What only the PostgreSQL store does: its schema, JSONB, and how a server that goes away,
/// or a role or database that is not there, is said.
@Suite("Mirror store: PostgreSQL")
struct PostgresMirrorTests {
    @Test func theTablesLiveInASchemaOfTheirOwnAndEachMigrationRunsOnce() async throws {
        let cluster = try ThrowawayPostgres.shared.get()
        let address = try cluster.newDatabase()
        let first = try await PostgresMirror.open(address)
        _ = try await first.createCollection(preferredName: "posts", url: "http://o.test/posts", now: Date())
        await first.close()
        let second = try await PostgresMirror.open(address)
        #expect(try await second.collections().map(\.name) == ["posts"], "opened again: migrated once, nothing lost")
        #expect(try await second.problems().isEmpty)
        await second.close()
        // The team's own tables beside it are untouched: `item` in public is another table.
        try cluster.sql("CREATE TABLE public.item (id int)", database: address.database)
        let third = try await PostgresMirror.open(address)
        #expect(try await third.collections().count == 1)
        await third.close()
    }

    @Test func itemsAreJSONBThatSQLCanQuery() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        try await mirror.write([(.integer(1), #"{"id":1,"user":{"login":"kim"}}"#)])
        let store = try #require(mirror.store as? PostgresMirror)
        let row = try ThrowawayPostgres.shared.get().sql("SELECT jsonb_typeof(json), json #>> '{user,login}' FROM fresh.item",
                                                         database: store.address.database)
        #expect(row == "object|kim\n")
        #expect(try await mirror.keys(filters: [ItemFilter(parsing: "user.login=kim")!]) == [.integer(1)])
    }

    @Test func aMissingDatabaseOrRoleIsOneLine() async throws {
        let cluster = try ThrowawayPostgres.shared.get()
        await #expect(throws: StorageError.cannotOpen(path: try cluster.address(of: "absent").description,
                                                      reason: #"database "absent" does not exist"#)) {
            _ = try await PostgresMirror.open(try cluster.address(of: "absent"))
        }
        await #expect(throws: StorageError.cannotOpen(path: try cluster.address(of: "postgres", user: "nobody").description,
                                                      reason: #"role "nobody" does not exist"#)) {
            _ = try await PostgresMirror.open(try cluster.address(of: "postgres", user: "nobody"))
        }
        let nowhere = try PostgresAddress(parsing: "postgresql://fresh@%2Fnonexistent%2Fdir/db", environment: [:])
        await #expect(throws: StorageError.cannotOpen(path: nowhere.description, reason: "no such file or directory (is the server running?)")) {
            _ = try await PostgresMirror.open(nowhere)
        }
    }

    /// The server ends the session (an administrator, a restart, a lost network): the write
    /// that finds it fails as one line, and what it was writing is not there, not even in part.
    @Test func aLostConnectionIsOneLineAndLeavesNothingHalfWritten() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        try await mirror.write(0, pass: 1, [(1, "a")])
        let cluster = try ThrowawayPostgres.shared.get()
        let database = try #require(mirror.store as? PostgresMirror).address.database
        try cluster.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        let pages = (1...3).map { PageContent(index: $0, url: "u\($0)", nextURL: nil, validator: nil, items: items([($0 + 10, "x")])) }
        await #expect {
            _ = try await mirror.store.writePages(pages, of: mirror.collection.id, pass: 1, now: Date())
        } throws: { error in
            guard case StorageError.lost(let location, _) = error else { return false }
            return location == mirror.store.location && "\(error)".split(separator: "\n").count == 1
        }
        let reopened = try await mirror.reopen()
        #expect(try await reopened.itemCount(in: mirror.collection.id) == 1)
        #expect(try await reopened.pages(of: mirror.collection.id).keys.sorted() == [0])
        await reopened.close()
    }
}
