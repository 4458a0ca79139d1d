import Foundation
import JSON
import MirrorStore
import StorageErrors
import StoreAddress
import StoreTestSupport
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
        try await mirror.write(2, pass: 1, [(3, "c")])
        let cluster = try ThrowawayPostgres.shared.get()
        let database = try #require(mirror.store as? PostgresMirror).address.database
        // Another session holds page 2's row: the batch below writes page 1 whole, then waits
        // on page 2 inside its transaction, where the server ends its session.
        let holder = try cluster.session(database: database)
        try holder.run("BEGIN; SELECT 1 FROM fresh.page WHERE page_index = 2 FOR UPDATE;")
        let pages = (1...3).map { PageContent(index: $0, url: "u\($0)", nextURL: nil, validator: nil, items: items([($0 + 10, "x")])) }
        let (store, id) = (mirror.store, mirror.collection.id)
        let writing = Task { try await store.writePages(pages, of: id, pass: 1, now: Date()) }
        let waitingWriter = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
        var blocked = ""
        for _ in 0..<2000 where blocked.isEmpty { blocked = try cluster.sql(waitingWriter) }
        #expect(!blocked.isEmpty, "the write waits on page 2, page 1 written in its transaction")
        try cluster.sql("SELECT pg_terminate_backend(pid) FROM (\(waitingWriter)) AS waiting")
        await #expect {
            _ = try await writing.value
        } throws: { error in
            guard case StorageError.lost(let location, _) = error else { return false }
            return location == mirror.store.location && "\(error)".split(separator: "\n").count == 1
        }
        try holder.run("ROLLBACK;")
        holder.close()
        let reopened = try await mirror.reopen()
        #expect(try await reopened.itemCount(in: mirror.collection.id) == 2, "page 1's item went with its transaction")
        #expect(try await reopened.pages(of: mirror.collection.id).keys.sorted() == [0, 2])
        await reopened.close()
    }
}
