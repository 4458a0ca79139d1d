import CSQLiteOptions
import Foundation
import GRDB
import HTTPCache
import StorageErrors
import Synchronization

/// The HTTP cache database (`cache.sqlite`): the persistent ``CacheStorage``, disposable.
///
/// Entries are written one transaction each, kept under a byte capacity by least-recently-used
/// eviction; bookkeeping is batched (``batchDelay``, ``batchLimit``); lookups go through a ``CacheConnection``;
/// GRDB's queue opens only for stores and maintenance, on the same file (docs/http-caching.md §9).
public final class CacheDatabase: CacheStorage {
    /// The default byte capacity: 100 MiB.
    public static let defaultCapacity = 100 * 1024 * 1024
    /// The longest a batched write waits before the next refresh writes the batch.
    public static let batchDelay: TimeInterval = 1
    /// The most refreshes a batch holds before the next refresh writes it: a sync revalidating
    /// a thousand pages a second would otherwise hold a thousand records (3 MiB at the peak).
    public static let batchLimit = 256

    public let path: String
    /// The most bytes the entries may occupy.
    public let capacity: Int
    /// Set when the file was damaged and rebuilt while opening, with what happened.
    public let recoveryWarning: String?

    /// GRDB's queue: open at once when the file needed setting up, else by ``grdbQueue()``.
    private let queue: Mutex<DatabaseQueue?>
    private let connection: CacheConnection
    private let pending = Mutex(CacheBookkeeping())
    private let now: @Sendable () -> Date
    private let rawLookups: Bool

    /// Opens (creating if needed) the cache database at `path`.
    /// - Parameter rawLookups: lookups through the connection, else through GRDB (the plain path).
    public convenience init(path: String, capacity: Int = CacheDatabase.defaultCapacity, rawLookups: Bool = true,
                            now: @escaping @Sendable () -> Date = Date.init) throws {
        if let ready = Self.readyConnection(at: path) {
            self.init(path: path, capacity: capacity, rawLookups: rawLookups, now: now, connection: ready, queue: nil, recoveryWarning: nil)
            return
        }
        let opened: DatabaseQueue
        var recoveryWarning: String?
        do {
            try DamageMarker.refuseIfMarked(path)
            opened = try Self.openMigrated(path)
        } catch let error as StorageError {
            guard let reason = Self.rebuildReason(for: error, path: path) else { throw error }
            let aside = Self.unusedAsidePath(for: path, at: now())
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            opened = try Self.openMigrated(path)
            DamageMarker.clear(path)
            Self.removeEarlierAsideFiles(of: path, keeping: aside)
            recoveryWarning = "cache database at \(path) was unreadable (\(reason)); moved it to \(aside) and started an empty cache"
        }
        let connection: CacheConnection
        do {
            connection = try CacheConnection(path: path, pragmas: Self.pragmas, busyTimeout: DatabaseFile.defaultBusyTimeout)
        } catch {
            throw DatabaseFile.classify(error, path: path)
        }
        self.init(path: path, capacity: capacity, rawLookups: rawLookups, now: now, connection: connection, queue: opened,
                  recoveryWarning: recoveryWarning)
    }

    /// The cache database at `path`, with the default capacity, when the file is ready as it is
    /// (docs/http-caching.md §9); `nil` otherwise, and nothing is created, migrated or moved. For
    /// opening the file before the command line that names it is known to be valid.
    public static func openIfReady(path: String) -> CacheDatabase? {
        readyConnection(at: path).map {
            CacheDatabase(path: path, capacity: defaultCapacity, now: Date.init, connection: $0, queue: nil, recoveryWarning: nil)
        }
    }

    private init(path: String, capacity: Int, rawLookups: Bool = true, now: @escaping @Sendable () -> Date, connection: CacheConnection,
                 queue: DatabaseQueue?, recoveryWarning: String?) {
        self.path = path
        self.capacity = capacity
        self.rawLookups = rawLookups
        self.now = now
        self.connection = connection
        self.queue = Mutex(queue)
        self.recoveryWarning = recoveryWarning
    }

    private static func readyConnection(at path: String) -> CacheConnection? {
        DatabaseFile.applyProcessSettings()
        guard !DamageMarker.isMarked(path) else { return nil }
        return CacheConnection.openReady(at: path, migrations: CacheSchema.identifiers, probeTables: probeTables,
                                         pragmas: pragmas, busyTimeout: DatabaseFile.defaultBusyTimeout)
    }

    /// Whether GRDB's queue is open (tests: a hit on a ready file never opens it).
    var isQueueOpen: Bool { queue.withLock { $0 != nil } }

    /// Bytes in the page cache of GRDB's queue, `nil` when it is not open (tests: the refreshes
    /// of a long sync do not fill a second page cache).
    var queuePageCacheBytes: Int? {
        guard let queue = queue.withLock({ $0 }) else { return nil }
        return try? queue.inDatabase { db in
            var used: Int32 = 0
            var highest: Int32 = 0
            sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0)
            return Int(used)
        }
    }

    /// Why the file at `path` is moved aside and rebuilt (docs/http-caching.md §9); `nil` when it
    /// is not ours to move (a directory, another user's file) or a new file would fail the same way.
    static func rebuildReason(for error: StorageError, path: String) -> String? {
        switch error {
        case .corrupted(_, let reason): return reason
        case .cannotOpen(path, let reason):
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { return nil }
            return reason
        default: return nil
        }
    }

    /// Where a damaged file goes (docs/http-caching.md §9), with `-2`, `-3`… when the name is
    /// taken, so no two recoveries collide (a failed move would leave the damaged file in place).
    private static func unusedAsidePath(for path: String, at date: Date) -> String {
        let base = "\(path).corrupt-\(Int(date.timeIntervalSince1970))-\(getpid())"
        var candidate = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: candidate) {
            attempt += 1
            candidate = "\(base)-\(attempt)"
        }
        return candidate
    }

    /// Deletes the damaged files earlier recoveries moved aside: only the newest, `kept`, stays
    /// for inspection, so a file that keeps getting damaged cannot fill the disk with copies.
    private static func removeEarlierAsideFiles(of path: String, keeping kept: String) {
        let directory = PathComponents.parent(of: path)
        let prefix = (path as NSString).lastPathComponent + ".corrupt-"
        let keptNames = Set(["", "-wal", "-shm"].map { (kept as NSString).lastPathComponent + $0 })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(prefix) && !keptNames.contains(name) {
            let aside = (directory as NSString).appendingPathComponent(name)
            var status = stat()
            if lstat(aside, &status) == 0, status.st_mode & S_IFMT == S_IFREG { unlink(aside) }
        }
    }

    /// Tables whose first row every open reads, so that damage to them is found there.
    private static let probeTables = ["cacheEntry", "cacheBody"]

    /// The page size of a new cache file: SQLite's own, not the mirror's 16 KiB. Most of what the
    /// cache writes is small rows (an entry's headers; a sync stores a thousand pages' validators
    /// and no body), and each store changes a few pages of them, copying each page whole twice:
    /// into the write-ahead log, and, before a change a trigger may add to (``CacheSchema``), into
    /// the statement journal. A cold sync of 1,000 pages: CPU 0.698 → 0.672 s; a 100 KB body's
    /// hit, a chain of four times as many pages: 13.4 → 15.2 µs (docs/performance.md, step 12).
    static let pageSize = 4096

    /// The cache's own settings, after ``DatabaseFile``'s (docs/http-caching.md §9): freed pages not
    /// zeroed; zeroing (Debian's default) adds half again to a store's WAL traffic and checkpoints.
    private static let cachePragmas = ["PRAGMA secure_delete = FAST"]
    private static let pragmas = DatabaseFile.pragmas(pageSize: pageSize) + cachePragmas

    private static func openMigrated(_ path: String) throws -> DatabaseQueue {
        try DatabaseFile.openQueue(at: path, migrator: CacheSchema.migrator, probeTables: probeTables,
                                   pageSize: pageSize, extraPragmas: cachePragmas)
    }

    private func grdbQueue() throws -> DatabaseQueue {
        try queue.withLock { queue in
            if let queue { return queue }
            guard connection.isStill(at: path) else {
                throw StorageError.cannotOpen(path: path, reason: "another process replaced or removed the file while this one had it open")
            }
            let opened = try Self.openMigrated(path)
            queue = opened
            return opened
        }
    }

    /// Writes the batched bookkeeping and leaves the WAL as the next process should find it
    /// (``keptWALBytes``): what the end of a command does; the database stays usable. Deinit does it
    /// too, but may be too late: the last reference can go on another thread after the process exits.
    public func finish() {
        try? flush()
        try? queue.withLock { queue in
            try queue?.writeWithoutTransaction { _ = fresh_sqlite3_keep_wal_on_close($0.sqliteConnection) }
        }
        var wal = stat()
        if stat(path + "-wal", &wal) == 0, Int(wal.st_size) >= Self.keptWALBytes {
            try? connection.emptyWAL(waitingAtMost: Self.closingCheckpointWait)
        }
    }

    deinit { finish() }

    /// The largest WAL a finishing ``CacheDatabase`` leaves for the next process, sparing a hit the
    /// closing checkpoint; ``finish()`` empties a larger one, since every open reads the WAL back
    /// and costs more the larger it is (docs/http-caching.md §9, "A small WAL outlives the run").
    static let keptWALBytes = 512 * 1024
    /// How long a closing checkpoint waits for other connections' reads, in seconds.
    static let closingCheckpointWait = 0.05

    // MARK: CacheStorage

    public func variants(forKey key: String) throws -> [StoredResponse] {
        let records = try noticingDamage {
            rawLookups ? try connection.variants(forKey: key) : try grdbQueue().read { try CacheEntryRecord.variants(forKey: key, in: $0) }
        }
        // A refresh still in memory (see ``batchDelay``) is what the entry is now.
        let current = pending.withLock { pending in
            records.map { record in
                pending.refreshes[CacheBookkeeping.VariantID(key: record.key, variantKey: record.variantKey)].map(record.refreshed) ?? record
            }
        }
        return current.compactMap(\.storedResponse)
    }

    public func store(_ entry: StoredResponse) throws { try store(contentsOf: [entry]) }

    /// Stores the entries as ``store(_:)`` does, in one transaction. An entry larger than the
    /// capacity is not stored (its older variant is removed) and is reported after the others.
    public func store(contentsOf entries: [StoredResponse]) throws {
        let at = now()
        let records = entries.map { CacheEntryRecord($0, accessedAt: at) }
        // The queue first: a batch taken out of memory must have somewhere to go.
        let writer = try grdbQueue()
        let batch = takePending()
        let tooLarge = try noticingDamage { try writer.write { db in
            try batch.write(on: db.sqliteConnection!)
            var tooLarge: CacheEntryRecord?
            for record in records {
                guard record.size <= capacity else {
                    try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ? AND variantKey = ?", arguments: [record.key, record.variantKey])
                    tooLarge = tooLarge ?? record
                    continue
                }
                try record.save(db)
            }
            _ = try CacheEntryRecord.evict(db, toFit: capacity)
            return tooLarge
        } }
        if let tooLarge { throw CacheStorageError.entryTooLarge(size: tooLarge.size, capacity: capacity) }
    }

    /// Batches the new headers and times of a revalidated entry (see the type's notes); the
    /// batch is written now when its oldest refresh has waited ``batchDelay``, or when it holds
    /// ``batchLimit`` refreshes.
    public func refresh(_ entry: StoredResponse) throws {
        let at = now()
        var record = CacheEntryRecord(entry, accessedAt: at)
        // The body stays in its row: a sync revalidating a thousand pages must not hold them all.
        record.body = Data()
        let due = pending.withLock { pending in
            pending.refreshes[CacheBookkeeping.VariantID(key: entry.key, variantKey: entry.variantKey)] = record
            let oldest = pending.oldestRefresh ?? at
            pending.oldestRefresh = oldest
            return at.timeIntervalSince(oldest) >= Self.batchDelay || pending.refreshes.count >= Self.batchLimit
        }
        if due { try flush() }
    }

    public func removeAll(forKey key: String) throws {
        try noticingDamage {
            try grdbQueue().write { try $0.execute(sql: "DELETE FROM cacheEntry WHERE key = ?", arguments: [key]) }
        }
    }

    public func recordAccess(key: String, variantKey: String) {
        let at = now().timeIntervalSince1970
        pending.withLock { $0.accesses[CacheBookkeeping.VariantID(key: key, variantKey: variantKey)] = at }
    }

    public func recordOutcome(_ outcome: CacheOutcome) {
        pending.withLock { pending in
            var total = pending.outcomes[outcome.kind] ?? CacheOutcome(kind: outcome.kind, bytesSaved: 0, bytesReceived: 0)
            total.bytesSaved += outcome.bytesSaved
            total.bytesReceived += outcome.bytesReceived
            pending.outcomes[outcome.kind] = total
            pending.counts[outcome.kind, default: 0] += 1
        }
    }

    /// Writes the batched use times, statistics and refreshes now, on the lookup connection,
    /// whose page cache holds the rows the lookups just read. When GRDB's queue is open, the
    /// write waits its turn on the queue (behind this process's stores, instead of in SQLite's
    /// busy handler) but does not use its connection: a second connection writing the refreshes
    /// of a long sync would fill a second page cache, 8 MiB more at 10,000,000 items.
    public func flush() throws {
        let batch = takePending()
        guard !batch.isEmpty else { return }
        try noticingDamage {
            let write = { [connection] in try connection.write { try batch.write(on: $0) } }
            if let writer = queue.withLock({ $0 }) {
                try writer.writeWithoutTransaction { _ in try write() }
            } else {
                try write()
            }
        }
    }

    /// Runs `work`, marking the file (``DamageMarker``) when it finds it damaged, so the next open
    /// rebuilds it instead of every run quietly going to the network (docs/http-caching.md §9).
    private func noticingDamage<Value>(_ work: () throws -> Value) throws -> Value {
        do {
            return try work()
        } catch {
            if DatabaseFile.isCorruption(error) { DamageMarker.mark(path, reason: DatabaseFile.message(of: error)) }
            throw error
        }
    }

    // MARK: Maintenance (`fresh cache …`)

    /// Entry count, bytes and the counters of every outcome.
    public func statistics() throws -> CacheStatistics {
        try flush()
        return try noticingDamage { try grdbQueue().read { db in
            var statistics = CacheStatistics(
                entries: try Int.fetchOne(db, sql: "SELECT count(*) FROM cacheEntry") ?? 0,
                bytes: try CacheEntryRecord.totalBytes(db), capacity: capacity)
            for row in try Row.fetchAll(db, sql: "SELECT * FROM cacheStat") {
                guard let kind = CacheOutcome.Kind(rawValue: row["kind"]) else { continue }
                statistics.counts[kind] = row["count"]
                statistics.bytesSaved += row["bytesSaved"] as Int
                statistics.bytesReceived += row["bytesReceived"] as Int
            }
            return statistics
        } }
    }

    /// Every stored entry, most recently used first.
    public func listEntries() throws -> [CacheListing] {
        try noticingDamage { try grdbQueue().read { db in
            try Row.fetchAll(db, sql: "SELECT key, variantKey, status, size, lastAccess FROM cacheEntry ORDER BY lastAccess DESC").map { row in
                CacheListing(key: row["key"], variantKey: row["variantKey"], status: row["status"], size: row["size"],
                             lastAccess: Date(timeIntervalSince1970: row["lastAccess"]))
            }
        } }
    }

    /// Removes every entry and resets the statistics.
    public func clear() throws {
        _ = takePending()
        try noticingDamage {
            try grdbQueue().write { try $0.execute(sql: "DELETE FROM cacheEntry; DELETE FROM cacheStat;") }
        }
    }

    /// Deletes the cache database at `path` with its `-wal` and `-shm` files, for a file too
    /// damaged for ``clear()``: the cache is disposable, and the next open starts an empty one.
    public static func deleteFiles(at path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.removeItem(atPath: path + suffix)
            } catch {
                throw StorageError.cannotOpen(path: path + suffix, reason: "cannot delete it: \((error as NSError).localizedDescription)")
            }
        }
        DamageMarker.clear(path)
    }

    /// Evicts least-recently-used entries until at most `maximumBytes` remain; returns how many.
    public func prune(toFit maximumBytes: Int) throws -> Int {
        try flush()
        return try noticingDamage { try grdbQueue().write { db in try CacheEntryRecord.evict(db, toFit: maximumBytes) } }
    }

    // MARK: Batching

    private func takePending() -> CacheBookkeeping {
        pending.withLock { pending in
            defer { pending = CacheBookkeeping() }
            return pending
        }
    }
}

/// What `fresh cache stats` prints.
public struct CacheStatistics: Sendable, Equatable {
    public var entries: Int
    public var bytes: Int
    public var capacity: Int
    public var counts: [CacheOutcome.Kind: Int] = [:]
    public var bytesSaved = 0
    public var bytesReceived = 0
}

/// One line of `fresh cache ls`.
public struct CacheListing: Sendable, Equatable {
    public var key: String
    public var variantKey: String
    public var status: Int
    public var size: Int
    public var lastAccess: Date
}
