import Foundation
import GRDB
import HTTPCache
import HTTPTypes
@testable import Storage
import Testing

/// Bodies live in `cacheBody`, one row per entry: these pin that no body outlives its entry
/// and that a database written before the move keeps every entry.
@Suite("Cache database: bodies in their own table")
struct CacheBodyTableTests {
    func entry(_ path: String, body: Int) -> StoredResponse {
        let url = URL(string: "http://o.test\(path)")!
        return StoredResponse(
            key: CacheKey.primary(method: .get, url: url), variantKey: "", url: url, method: .get, status: .ok,
            headerFields: [.cacheControl: "max-age=60"], body: Data(repeating: UInt8(body % 251), count: body),
            requestTime: Date(timeIntervalSince1970: 1000), responseTime: Date(timeIntervalSince1970: 1001))
    }

    /// (entry rows, body rows, bodies no entry points at, the kept total minus the entries' sizes)
    func census(_ path: String) throws -> (entries: Int, bodies: Int, orphans: Int, totalDrift: Int) {
        try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM cacheEntry")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM cacheBody")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM cacheBody WHERE id NOT IN (SELECT bodyID FROM cacheEntry)")!,
             try Int.fetchOne(db, sql: "SELECT totalBytes - (SELECT coalesce(sum(size), 0) FROM cacheEntry) FROM cacheMeta")!)
        }
    }

    @Test func replacingRemovingEvictingAndClearingLeaveNoBodyBehind() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path, capacity: 200_000)
        try database.store(entry("/a", body: 40_000))
        try database.store(entry("/a", body: 50_000))
        try database.store(entry("/b", body: 300))
        try database.removeAll(forKey: entry("/b", body: 0).key)
        for name in ["/c", "/d", "/e", "/f"] { try database.store(entry(name, body: 60_000)) }
        #expect(try database.variants(forKey: entry("/f", body: 0).key).first?.body == entry("/f", body: 60_000).body)
        var counts = try census(path)
        #expect(counts.entries == 3)
        #expect(counts.bodies == 3)
        #expect(counts.orphans == 0)
        #expect(counts.totalDrift == 0)

        try database.clear()
        counts = try census(path)
        #expect(counts.entries == 0 && counts.bodies == 0 && counts.totalDrift == 0)
    }

    @Test func anEntryWhoseBodyRowWentMissingIsStoredAgainWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path)
        let stored = entry("/a", body: 20_000)
        let other = entry("/b", body: 30_000)
        try database.store(stored)
        try DatabaseQueue(path: path).write { try $0.execute(sql: "DELETE FROM cacheBody") }
        #expect(try database.variants(forKey: stored.key).isEmpty)

        // The next body stored, for another URL, must not take the lost body's place.
        try database.store(other)
        #expect(try database.variants(forKey: stored.key).isEmpty)
        try database.store(stored)
        #expect(try database.variants(forKey: stored.key) == [stored])
        #expect(try database.variants(forKey: other.key) == [other])
        let counts = try census(path)
        #expect(counts.entries == 2 && counts.bodies == 2 && counts.orphans == 0)
    }

    /// A file from before the bodies moved is brought up to date: its entries go with the
    /// credentials rule (v4: they said nothing of who asked), their bodies and their size with
    /// them, and the tables it ends with store and count as a new file's do.
    @Test func aDatabaseFromBeforeTheMoveIsEmptiedAndWorks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let small = entry("/small", body: 500), large = entry("/large", body: 90_000)
        let old = try DatabaseQueue(path: path)
        try CacheSchema.migrator.migrate(old, upTo: "v1-cache-entries")
        try old.write { db in
            for stored in [small, large] {
                let record = CacheEntryRecord(stored, accessedAt: Date(timeIntervalSince1970: 1002))
                try db.execute(sql: """
                    INSERT INTO cacheEntry (key, variantKey, url, method, status, headers, body, requestTime,
                        responseTime, size, lastAccess) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [record.key, record.variantKey, record.url, record.method, record.status, record.headers,
                                     record.body, record.requestTime, record.responseTime, record.size, record.lastAccess])
            }
        }
        try old.close()

        let database = try CacheDatabase(path: path)
        #expect(try database.variants(forKey: small.key).isEmpty && database.variants(forKey: large.key).isEmpty)
        #expect(try database.statistics().bytes == 0)
        let emptied = try census(path)
        #expect(emptied.entries == 0 && emptied.bodies == 0 && emptied.orphans == 0 && emptied.totalDrift == 0)
        try database.store(small)
        try database.store(large)
        #expect(try database.variants(forKey: small.key) == [small])
        #expect(try database.variants(forKey: large.key) == [large])
        #expect(try database.statistics().bytes == small.approximateSize + large.approximateSize)
        try database.removeAll(forKey: large.key)
        let counts = try census(path)
        #expect(counts.entries == 1 && counts.bodies == 1 && counts.orphans == 0 && counts.totalDrift == 0)
    }

    /// What the emptying deleted is overwritten: a token an older entry kept as text (a
    /// `Vary: Authorization` variant) is nowhere in the file once its log is checkpointed.
    @Test func theEmptiedEntriesLeaveNoTokenInTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let old = try DatabaseQueue(path: path)
        try CacheSchema.migrator.migrate(old, upTo: "v3-omitted-bodies")
        try old.write { db in
            for index in 0..<50 {
                var stored = entry("/private/\(index)", body: 300)
                stored.variantKey = "authorization=Bearer OLD-SECRET-TOKEN-\(index)"
                let record = CacheEntryRecord(stored, accessedAt: Date(timeIntervalSince1970: 1002))
                try db.execute(sql: "INSERT INTO cacheBody (body) VALUES (?)", arguments: [record.body])
                try db.execute(sql: """
                    INSERT INTO cacheEntry (key, variantKey, url, method, status, headers, requestTime, responseTime, size, lastAccess, bodyID)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [record.key, record.variantKey, record.url, record.method, record.status, record.headers,
                                     record.requestTime, record.responseTime, record.size, record.lastAccess, db.lastInsertedRowID])
            }
        }
        try old.close()
        _ = try CacheDatabase(path: path)
        let checkpointing = try DatabaseQueue(path: path)
        try checkpointing.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try checkpointing.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("OLD-SECRET-TOKEN".utf8)) == nil)
    }

    /// A new cache file has SQLite's 4 KiB pages (``CacheDatabase/pageSize``), a new mirror 16 KiB;
    /// a cache file made with 16 KiB pages (before) keeps them, and a body over many pages of
    /// either comes back whole.
    @Test func aNewCacheHasSmallPagesAndAnOlderOneKeepsItsOwn() throws {
        let directory = try TemporaryDirectory()
        func pageSize(_ path: String) throws -> Int { try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size")! } }
        let older = directory.file("older.sqlite")
        try DatabaseQueue(path: older).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; CREATE TABLE made (x)")
        }
        for (path, size) in [(directory.file("cache.sqlite"), 4096), (older, 16384)] {
            let database = try CacheDatabase(path: path)
            let stored = entry("/big", body: 70_000)
            try database.store(stored)
            #expect(try database.variants(forKey: stored.key).first?.body == stored.body)
            database.finish()
            #expect(try pageSize(path) == size)
        }
        _ = try SQLiteMirror(path: directory.file("data.sqlite"))
        #expect(try pageSize(directory.file("data.sqlite")) == 16384)
    }
}
