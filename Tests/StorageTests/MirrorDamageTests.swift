import Foundation
import GRDB
import Pagination
import Storage
import Testing

@Suite("Item database: damage, recovery, old versions, read-only")
struct MirrorDamageTests {
    @Test func aFileThatIsNotADatabaseIsReportedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            try ItemDatabase(path: path)
        } throws: { error in
            guard case StorageError.corrupted = error else { return false }
            return true
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
    }

    /// Damage in the item table's pages: found by a write, which marks the file, so no later
    /// run writes to it; the check says so; recovery keeps what can be read.
    @Test func damageFoundOnceKeepsEveryLaterWriterAwayAndRecoverySavesTheRest() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let database = try ItemDatabase(path: path)
        let collection = try database.createCollection(preferredName: "big", url: "http://o.test/big")
        let items = (1...3000).map { #"{"id": \#($0), "text": "\#(String(repeating: "x", count: 200))"}"# }
        _ = try database.writePage(0, of: collection.id, pass: 1, url: "u", nextURL: nil, validator: nil,
                                   body: "[" + items.joined(separator: ",") + "]", items: .root, key: JSONPath(["id"]),
                                   keys: (1...3000).map { .integer($0) })
        try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        // Overwrite pages in the middle of the file (the item table's leaves) with zeros.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        handle.write(Data(repeating: 0, count: 4096 * 8))
        try handle.close()

        #expect(try MirrorCheck.problems(at: path) != ["ok"])
        #expect(throws: StorageError.self) {
            _ = try database.writePage(1, of: collection.id, pass: 1, url: "u2", nextURL: nil, validator: nil,
                                       body: #"[{"id": 99999}]"#, items: .root, key: JSONPath(["id"]), keys: [.integer(99999)])
            try database.forEachItem(in: collection.id) { _ in }
        }
        #expect {
            try ItemDatabase(path: path)
        } throws: { error in
            guard case StorageError.corrupted(_, let reason) = error else { return false }
            return reason.hasPrefix("found damaged before")
        }
        let recovery = try MirrorCheck.recover(at: path)
        #expect(recovery.collections == 1)
        #expect(recovery.items > 1000 && recovery.items < 3000)
        #expect(FileManager.default.fileExists(atPath: recovery.damagedCopy))
        #expect(try MirrorCheck.problems(at: path) == ["ok"])
        #expect(try ItemDatabase(path: path).itemCount(in: collection.id) == recovery.items)
    }

    @Test func aVersionTwoDatabaseMigratesItsPostsIntoACollection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1-posts-and-pages'), ('v2-post-sync-run');
                CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, author TEXT NOT NULL,
                                   updatedAt DOUBLE NOT NULL, resource TEXT NOT NULL DEFAULT '', syncRun TEXT NOT NULL DEFAULT '');
                CREATE TABLE syncedPage (resource TEXT NOT NULL, pageIndex INTEGER NOT NULL, cursor TEXT, nextCursor TEXT NOT NULL,
                                         itemCount INTEGER NOT NULL, syncedAt DOUBLE NOT NULL, PRIMARY KEY (resource, pageIndex));
                INSERT INTO post VALUES (7, '제목', '본문', '민지', 1704067200, 'http://o.test/posts?limit=20', 'run');
                """)
        }
        try old.close()
        let database = try ItemDatabase(path: path)
        let collection = try #require(try database.collection(named: "posts"))
        #expect(collection.url == "http://o.test/posts?limit=20")
        var items: [StoredItem] = []
        try database.forEachItem(in: collection.id) { items.append($0) }
        #expect(items.map(\.json) == [#"{"author":"민지","body":"본문","id":7,"title":"제목","updated_at":"2024-01-01T00:00:00Z"}"#])
    }

    @Test func aReadOnlyOpenerReadsWithoutCreatingAnything() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        #expect(throws: StorageError.self) { try ItemDatabase(path: path, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: path))
        let writer = try ItemDatabase(path: path)
        _ = try writer.createCollection(preferredName: "c", url: "http://o.test/c")
        #expect(try ItemDatabase(path: path, readOnly: true).collections().map(\.name) == ["c"])
    }
}
