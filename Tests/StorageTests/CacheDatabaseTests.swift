import CSQLiteOptions
import Foundation
import GRDB
import HTTPCache
import HTTPTypes
import MirrorStore
@testable import Storage
import StorageErrors
import Testing

@Suite("Cache database (SQLite)")
struct CacheDatabaseTests {
    func entry(_ path: String, body: Int = 100, variant: String = "") -> StoredResponse {
        let url = URL(string: "http://o.test\(path)")!
        return StoredResponse(
            key: CacheKey.primary(method: .get, url: url), variantKey: variant, url: url, method: .get, status: .ok,
            headerFields: [.cacheControl: "max-age=60", .eTag: #""e""#], body: Data(repeating: 0x61, count: body),
            requestTime: Date(timeIntervalSince1970: 1000), responseTime: Date(timeIntervalSince1970: 1001))
    }

    @Test func storesAndReadsBackAnEntryExactly() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        let stored = entry("/a?cursor=x")
        try database.store(stored)
        #expect(try database.variants(forKey: stored.key) == [stored])
    }

    @Test func keepsVariantsApartAndReplacesTheSameVariant() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        try database.store(entry("/a", variant: "accept=json"))
        try database.store(entry("/a", variant: "accept=xml"))
        try database.store(entry("/a", body: 5, variant: "accept=json"))
        let variants = try database.variants(forKey: entry("/a").key)
        #expect(variants.count == 2)
        #expect(try database.statistics().entries == 2)
    }

    @Test func evictsLeastRecentlyUsedEntriesBeyondCapacity() throws {
        let directory = try TemporaryDirectory()
        let clock = ClockBox()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"), capacity: 1000, now: { clock.now })
        for name in ["/a", "/b", "/c"] {
            try database.store(entry(name, body: 250))
            clock.advance()
        }
        database.recordAccess(key: entry("/a").key, variantKey: "")
        clock.advance()
        try database.store(entry("/d", body: 250))
        #expect(try database.variants(forKey: entry("/b").key).isEmpty)
        #expect(!(try database.variants(forKey: entry("/a").key).isEmpty))
        #expect(try database.statistics().bytes <= 1000)
    }

    @Test func refreshAfter304KeepsTheBodyIsReadAtOnceAndReachesTheFileOnFlush() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path)
        let original = entry("/a", body: 300)
        try database.store(original)
        var refreshed = original
        refreshed.headerFields[.cacheControl] = "max-age=120"
        refreshed.requestTime = Date(timeIntervalSince1970: 4999)
        refreshed.responseTime = Date(timeIntervalSince1970: 5000)
        try database.refresh(refreshed)
        let otherProcess = try CacheDatabase(path: path)
        #expect(try otherProcess.variants(forKey: original.key) == [original])
        #expect(try database.variants(forKey: original.key) == [refreshed])
        try database.flush()
        #expect(try otherProcess.variants(forKey: original.key) == [refreshed])
        #expect(try otherProcess.variants(forKey: original.key).first?.body.count == 300)
    }

    @Test func refreshWaitingLongerThanTheBatchDelayIsWrittenByTheNextRefresh() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let clock = ClockBox()
        let database = try CacheDatabase(path: path, now: { clock.now })
        let otherProcess = try CacheDatabase(path: path)
        try database.store(entry("/a"))
        try database.store(entry("/b"))
        var first = entry("/a")
        first.requestTime = Date(timeIntervalSince1970: 1499)
        first.responseTime = Date(timeIntervalSince1970: 1500)
        try database.refresh(first)
        #expect(try otherProcess.variants(forKey: first.key).first?.responseTime == entry("/a").responseTime)
        clock.advance()
        var second = entry("/b")
        second.requestTime = Date(timeIntervalSince1970: 1599)
        second.responseTime = Date(timeIntervalSince1970: 1600)
        try database.refresh(second)
        #expect(try otherProcess.variants(forKey: first.key).first?.responseTime == first.responseTime)
        #expect(try otherProcess.variants(forKey: second.key).first?.responseTime == second.responseTime)
    }

    @Test func refreshNeverOverwritesAResponseStoredAfterItsRequest() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path)
        let otherProcess = try CacheDatabase(path: path)
        try database.store(entry("/a", body: 300))
        var refreshed = entry("/a", body: 300)
        refreshed.headerFields[.eTag] = #""e""#
        refreshed.requestTime = Date(timeIntervalSince1970: 2000)
        refreshed.responseTime = Date(timeIntervalSince1970: 2001)
        try database.refresh(refreshed)
        var newer = entry("/a", body: 7)
        newer.headerFields[.eTag] = #""new""#
        newer.requestTime = Date(timeIntervalSince1970: 1999)
        newer.responseTime = Date(timeIntervalSince1970: 2100)
        try otherProcess.store(newer)
        #expect(try database.variants(forKey: newer.key) == [newer])
        try database.flush()
        #expect(try otherProcess.variants(forKey: newer.key) == [newer])
    }

    @Test func pruneFitsASmallerSize() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        for name in ["/a", "/b", "/c", "/d"] { try database.store(entry(name, body: 1000)) }
        let evicted = try database.prune(toFit: 2500)
        #expect(evicted == 2)
        #expect(try database.statistics().entries == 2)
    }

    @Test func statisticsCountOutcomesAfterBatching() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        database.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: 100, bytesReceived: 0))
        database.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: 50, bytesReceived: 0))
        database.recordOutcome(CacheOutcome(kind: .miss, bytesSaved: 0, bytesReceived: 70))
        let statistics = try database.statistics()
        #expect(statistics.counts[.hit] == 2)
        #expect(statistics.counts[.miss] == 1)
        #expect(statistics.bytesSaved == 150)
        #expect(statistics.bytesReceived == 70)
    }

    /// A lookup opens the file on every run of `fresh get`: the open reads, it never writes.
    @Test func aNewFileIsInWALModeAndOpeningItAgainWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do {
            let database = try CacheDatabase(path: path)
            try database.store(entry("/a"))
        }
        #expect(try Self.journalMode(of: path) == "wal")
        let walBefore = Self.walSize(of: path)
        let reopened = try CacheDatabase(path: path)
        #expect(Self.walSize(of: path) == walBefore)
        #expect(try reopened.variants(forKey: entry("/a").key).count == 1)
    }

    /// A run that wrote only a little (a hit's bookkeeping) leaves its WAL for the next run
    /// instead of checkpointing it on close, and the next run reads what it holds.
    @Test func closingWithASmallWALKeepsItForTheNextOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        // The file made (its migrations, a few hundred KiB of log), and its log emptied.
        _ = try CacheDatabase(path: path)
        let made = try DatabaseQueue(path: path)
        try made.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try made.close()
        do {
            let database = try CacheDatabase(path: path)
            try database.store(entry("/a"))
        }
        let kept = Self.walSize(of: path)
        #expect(kept > 0 && kept < CacheDatabase.keptWALBytes)
        do {
            let database = try CacheDatabase(path: path)
            #expect(try database.variants(forKey: entry("/a").key).count == 1)
            database.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: 100, bytesReceived: 0))
        }
        #expect(Self.walSize(of: path) > kept)
        let statistics = try CacheDatabase(path: path).statistics()
        #expect(statistics.entries == 1)
        #expect(statistics.counts[.hit] == 1)
    }

    /// Once the WAL has grown past the kept size, the close copies it into the file and
    /// empties it (an emptied WAL, unlike a deleted one, needs no write access to the directory,
    /// so it cannot grow without end in a read-only one).
    @Test func closingWithALargeWALCheckpointsItIntoTheFileAndEmptiesIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do {
            let database = try CacheDatabase(path: path)
            try database.store(entry("/large", body: CacheDatabase.keptWALBytes))
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(Self.walSize(of: path) == 0)
        let rows = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM cacheEntry") }
        #expect(rows == 1)
    }

    /// The end of a command settles the WAL itself: the database may outlive the command's
    /// last use of it (a reference a finished task drops later), and the process exits first.
    @Test func finishingEmptiesALargeWALWhileTheDatabaseIsStillHeld() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try CacheDatabase(path: path)
        try database.store(entry("/large", body: CacheDatabase.keptWALBytes))
        #expect(Self.walSize(of: path) >= CacheDatabase.keptWALBytes)
        database.finish()
        #expect(Self.walSize(of: path) == 0)
        #expect(try database.variants(forKey: entry("/large").key).count == 1)
    }

    static func walSize(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }

    static func journalMode(of path: String) throws -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    }

    @Test func filesAreCreatedPrivate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nested/cache.sqlite")
        _ = try CacheDatabase(path: path)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func corruptedFileIsMovedAsideAndRebuilt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: path))
        let database = try CacheDatabase(path: path)
        #expect(database.recoveryWarning?.contains("moved it to") == true)
        try database.store(entry("/a"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(leftovers.contains { $0.hasPrefix("cache.sqlite.corrupt-") })
    }

    @Test func onlyTheUsersOwnRegularFileIsRebuiltWhenItCannotBeOpened() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("cache.sqlite")
        try Data().write(to: URL(fileURLWithPath: file))
        let denied = StorageError.cannotOpen(path: file, reason: "Permission denied")
        #expect(CacheDatabase.rebuildReason(for: denied, path: file) == "Permission denied")
        #expect(CacheDatabase.rebuildReason(for: .cannotOpen(path: file + ".lock", reason: "x"), path: file) == nil)
        #expect(CacheDatabase.rebuildReason(for: .failed("database is locked"), path: file) == nil)

        let folder = directory.file("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(CacheDatabase.rebuildReason(for: .cannotOpen(path: folder, reason: "Is a directory"), path: folder) == nil)
        #expect(throws: StorageError.self) { try CacheDatabase(path: folder) }
        #expect(FileManager.default.fileExists(atPath: folder))
    }

    @Test func anUnusableDirectoryIsNotMistakenForADamagedFile() throws {
        let directory = try TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: directory.file("a-file")))
        #expect(throws: StorageError.self) { try CacheDatabase(path: directory.file("a-file/cache.sqlite")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a-file"])
    }

    @Test func recoveriesInTheSameSecondEachMoveTheFileAsideAndOnlyTheLastCopyStays() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let instant = Date(timeIntervalSince1970: 1_700_000_000)
        var warnings: [String] = []
        for byte: UInt8 in [0x42, 0x43, 0x44] {
            // A damaged file alone (the last run's WAL would be read over it).
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try Data(repeating: byte, count: 8192).write(to: URL(fileURLWithPath: path))
            let database = try CacheDatabase(path: path, now: { instant })
            warnings.append(try #require(database.recoveryWarning))
        }
        let asides = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("cache.sqlite.corrupt-") }
        #expect(asides.count == 1)
        #expect(warnings.last?.contains(try #require(asides.first)) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file(try #require(asides.first)))) == Data(repeating: 0x44, count: 8192))
    }

    @Test func damagedBodyTableIsFoundWhenOpening() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        var bodyRootPage = 0
        var pageSize = 0
        do {
            let database = try CacheDatabase(path: path)
            try database.store(entry("/a"))
            let connection = try GRDB.DatabaseQueue(path: path)
            bodyRootPage = try connection.read { try Int.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'cacheBody'") } ?? 0
            pageSize = try connection.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 0
        }
        // The damage goes to the table's only copy: the file, once the WAL is checkpointed.
        try GRDB.DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(bodyRootPage > 1)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((bodyRootPage - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()
        let reopened = try CacheDatabase(path: path)
        #expect(reopened.recoveryWarning?.contains("moved it to") == true)
        #expect(try reopened.variants(forKey: entry("/a").key).isEmpty)
    }

    /// Damage the open's checks cannot see (the key index): the lookup that finds it marks the
    /// file, and the next open moves it aside and starts an empty cache, where before every
    /// run went to the network again without a word.
    @Test func damageALookupFindsIsRepairedByTheNextOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do { try CacheDatabase(path: path).store(entry("/a")) }
        let (indexRootPage, pageSize) = try GRDB.DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            return (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_cacheEntry_1'") ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        #expect(indexRootPage > 1)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seek(toOffset: UInt64((indexRootPage - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()

        do {
            let damaged = try CacheDatabase(path: path)
            #expect(damaged.recoveryWarning == nil)
            #expect(throws: DatabaseError.self) { try damaged.variants(forKey: entry("/a").key) }
        }
        #expect(FileManager.default.fileExists(atPath: DamageMarker.markerPath(for: path)))
        let rebuilt = try CacheDatabase(path: path)
        #expect(rebuilt.recoveryWarning?.contains("found damaged before") == true)
        #expect(try rebuilt.variants(forKey: entry("/a").key).isEmpty)
        try rebuilt.store(entry("/a"))
        #expect(try rebuilt.variants(forKey: entry("/a").key).count == 1)
        #expect(!FileManager.default.fileExists(atPath: DamageMarker.markerPath(for: path)))
    }

    @Test func unwritableLocationIsAClearError() throws {
        let directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.file("plain-file"), contents: Data()))
        #expect(throws: StorageError.self) { try CacheDatabase(path: directory.file("plain-file/cache.sqlite")) }
    }

    @Test func twoConnectionsShareOneFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let first = try CacheDatabase(path: path)
        let second = try CacheDatabase(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let database = index.isMultiple(of: 2) ? first : second
                group.addTask { try database.store(entry("/item\(index)")) }
            }
            try await group.waitForAll()
        }
        #expect(try first.statistics().entries == 20)
    }

    // MARK: Opening a ready file without GRDB

    /// A cache file holding `stored`, closed and opened again: a ready file, which the open
    /// takes without GRDB's queue.
    func readyDatabase(holding stored: StoredResponse, at path: String) throws -> CacheDatabase {
        do { try CacheDatabase(path: path).store(stored) }
        return try CacheDatabase(path: path)
    }

    /// A run that only answers from the cache (`fresh get` of a fresh entry) opens a file this
    /// version set up with its own connection alone, and its bookkeeping still reaches the file.
    @Test func aReadyFileAnswersAndKeepsItsBookkeepingWithoutOpeningGRDB() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let clock = ClockBox()
        let stored = entry("/a")
        do {
            let database = try CacheDatabase(path: path, now: { clock.now })
            #expect(database.isQueueOpen)
            try database.store(stored)
        }
        clock.advance()
        do {
            let database = try CacheDatabase(path: path, now: { clock.now })
            #expect(try database.variants(forKey: stored.key) == [stored])
            database.recordAccess(key: stored.key, variantKey: "")
            database.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: 100, bytesReceived: 0))
            try database.flush()
            #expect(!database.isQueueOpen)
        }
        let reopened = try CacheDatabase(path: path)
        #expect(try reopened.statistics().counts[.hit] == 1)
        #expect(try reopened.listEntries().map(\.lastAccess) == [clock.now])
    }

    /// The first store after such an open opens GRDB's queue, and the batch waiting in memory
    /// goes into the store's transaction.
    @Test func aStoreAfterAReadyOpenOpensGRDBAndTakesTheBatchAlong() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try readyDatabase(holding: entry("/a"), at: path)
        #expect(!database.isQueueOpen)
        database.recordOutcome(CacheOutcome(kind: .miss, bytesSaved: 0, bytesReceived: 70))
        try database.store(entry("/b"))
        #expect(database.isQueueOpen)
        let counts = try GRDB.DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM cacheEntry"), try Int.fetchOne(db, sql: "SELECT count FROM cacheStat WHERE kind = 'miss'"))
        }
        #expect(counts.0 == 2 && counts.1 == 1)
    }

    /// Once a store has opened GRDB's queue, the refreshes batched after it are still written on
    /// the lookup connection: the queue's page cache does not grow with them. (It did: a sync
    /// revalidating 10,000,000 items after one 200 filled a second 8 MiB page cache.)
    @Test func refreshesAfterAStoreAreWrittenOnTheLookupConnection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let stored = (0..<3_000).map { entry("/page/\($0)", body: 200) }
        do {
            let filling = try CacheDatabase(path: path)
            try filling.store(contentsOf: stored)
        }
        let database = try CacheDatabase(path: path)
        try database.store(entry("/changed"))
        let before = try #require(database.queuePageCacheBytes)
        for var response in stored {
            response.requestTime = Date(timeIntervalSince1970: 1999)
            response.responseTime = Date(timeIntervalSince1970: 2000)
            try database.refresh(response)
        }
        try database.flush()
        let after = try #require(database.queuePageCacheBytes)
        #expect(after - before < 64 * 1024, "the queue's page cache grew from \(before) to \(after) bytes")
        #expect(try database.variants(forKey: stored[2_999].key).first?.responseTime == Date(timeIntervalSince1970: 2000))
    }

    /// A file that is not ready as it is gets the full open: one still waiting for a migration
    /// is migrated, one in another journal mode is switched to WAL.
    @Test func aFileThatIsNotReadyGetsTheFullOpen() throws {
        let directory = try TemporaryDirectory()
        let behind = directory.file("behind.sqlite")
        do {
            let old = try DatabaseQueue(path: behind)
            _ = try old.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }
            try CacheSchema.migrator.migrate(old, upTo: "v1-cache-entries")
        }
        let migrated = try CacheDatabase(path: behind)
        #expect(migrated.isQueueOpen)
        try migrated.store(entry("/a"))
        #expect(try migrated.variants(forKey: entry("/a").key).count == 1)

        let rollback = directory.file("rollback.sqlite")
        do { try CacheSchema.migrator.migrate(try DatabaseQueue(path: rollback)) }
        #expect(try CacheDatabase(path: rollback).isQueueOpen)
        #expect(try Self.journalMode(of: rollback) == "wal")
    }

    /// A file the check turns away (for the full open to deal with) is left exactly as it was
    /// found: in particular its WAL is not checkpointed by the check's connection closing.
    @Test(arguments: ["newer schema", "damaged table", "rollback journal"])
    func aFileTheReadyCheckTurnsAwayIsLeftAsItWas(condition: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        do { try CacheDatabase(path: path).store(entry("/a")) }
        let queue = try DatabaseQueue(path: path)
        switch condition {
        case "newer schema":
            try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v3-from-a-newer-fresh')") }
        case "damaged table":
            try queue.write { try $0.execute(sql: "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE cacheBody (' WHERE name = 'cacheBody'") }
        default:
            _ = try queue.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = DELETE") }
        }
        try queue.writeWithoutTransaction { _ = fresh_sqlite3_keep_wal_on_close($0.sqliteConnection) }
        try queue.close()
        let files = try ["", "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: path + $0)) }
        #expect(CacheConnection.openReady(at: path, migrations: CacheSchema.identifiers, probeTables: ["cacheEntry", "cacheBody"],
                                          pragmas: [], busyTimeout: 1) == nil)
        #expect(try ["", "-wal"].map { try? Data(contentsOf: URL(fileURLWithPath: path + $0)) } == files)
    }

    /// A 304's new headers and size, batched and written on the lookup connection, reach the
    /// row and the total the eviction counts with.
    @Test func aRefreshWrittenWithoutGRDBUpdatesTheRowAndTheTotal() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let original = entry("/a", body: 300)
        do { try CacheDatabase(path: path).store(original) }
        var refreshed = original
        refreshed.headerFields[.cacheControl] = "max-age=120, must-revalidate"
        refreshed.requestTime = Date(timeIntervalSince1970: 2000)
        refreshed.responseTime = Date(timeIntervalSince1970: 2001)
        do {
            let database = try CacheDatabase(path: path)
            try database.refresh(refreshed)
            try database.flush()
            #expect(!database.isQueueOpen)
        }
        let database = try CacheDatabase(path: path)
        #expect(try database.variants(forKey: original.key).first?.headerFields[.cacheControl] == "max-age=120, must-revalidate")
        #expect(try database.statistics().bytes == refreshed.approximateSize)
    }

    /// Stores, flushes and lookups at once on a database opened without GRDB: the queue opens
    /// once, and nothing is lost.
    @Test func storesFlushesAndLookupsAtOnceAfterAReadyOpen() async throws {
        let directory = try TemporaryDirectory()
        let database = try readyDatabase(holding: entry("/seed"), at: directory.file("cache.sqlite"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask {
                    switch index % 3 {
                    case 0: try database.store(entry("/item\(index)"))
                    case 1:
                        database.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: 1, bytesReceived: 0))
                        try database.flush()
                    default: _ = try database.variants(forKey: entry("/seed").key)
                    }
                }
            }
            try await group.waitForAll()
        }
        let statistics = try database.statistics()
        #expect(statistics.entries == 11)
        #expect(statistics.counts[.hit] == 10)
    }

    /// Another process moved the file aside (it found it damaged) and made a new one: this
    /// process's stores fail rather than go to a file its lookups do not read.
    @Test func aStoreAfterTheFileWasReplacedFailsAndTouchesNeitherFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try readyDatabase(holding: entry("/a"), at: path)
        #expect(!database.isQueueOpen)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.moveItem(atPath: path + suffix, toPath: directory.file("aside") + suffix)
        }
        do { _ = try CacheDatabase(path: path) }
        #expect(throws: StorageError.self) { try database.store(entry("/b")) }
        #expect(try CacheDatabase(path: path).statistics().entries == 0)
        #expect(try database.variants(forKey: entry("/a").key).count == 1)
    }

    /// GRDB's queue opening beside the lookup connection must not drop that connection's locks
    /// on the file (closing any descriptor of it would): another process closing its own
    /// connection would then take itself for the last one and delete the WAL under this one.
    @Test func openingTheQueueBesideTheLookupConnectionKeepsItsLocks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let database = try readyDatabase(holding: entry("/a"), at: path)
        #expect(try database.variants(forKey: entry("/a").key).count == 1)
        try database.store(entry("/b"))
        #expect(database.isQueueOpen)
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        other.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM cacheEntry').fetchall(); c.close()", path]
        try other.run()
        other.waitUntilExit()
        #expect(other.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try database.store(entry("/c"))
        #expect(try database.statistics().entries == 3)
    }

    @Test func theIdentifiersTheReadyCheckComparesAreTheMigratorsOwn() {
        #expect(CacheSchema.migrator.migrations == CacheSchema.identifiers)
    }
}

/// A clock moved by hand, one second at a time.
final class ClockBox: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 2000)
    var now: Date { lock.withLock { current } }
    func advance() { lock.withLock { current += 1 } }
}
