import CSQLiteOptions
import Foundation
import GRDB
import GRDBSQLite
import HTTPCache
import Synchronization

/// The HTTP cache database (`cache.sqlite`): the persistent ``CacheStorage``.
///
/// Entries are written atomically, one transaction each; the total size is kept under a byte
/// capacity by least-recently-used eviction. Use-time updates, statistics and the header
/// refreshes of 304 responses are batched in memory and written with the next store, on
/// ``flush()``, or once the oldest has waited ``batchDelay``, so neither a hit nor a 304 costs a
/// write transaction of its own. Reads see the batched refreshes at once. A crash loses at most
/// the renewals of that delay, never a body: the entry then revalidates again. The cache is
/// disposable: a damaged file is moved aside and rebuilt with a warning.
public final class CacheDatabase: CacheStorage {
    /// The default byte capacity: 100 MiB.
    public static let defaultCapacity = 100 * 1024 * 1024
    /// The longest a batched write waits before the next refresh writes the batch.
    public static let batchDelay: TimeInterval = 1

    public let path: String
    /// The most bytes the entries may occupy.
    public let capacity: Int
    /// Set when the file was damaged and rebuilt while opening, with what happened.
    public let recoveryWarning: String?

    private let database: DatabaseQueue
    /// Lookups, on a connection of their own (see ``VariantLookup``).
    private let lookup: VariantLookup
    private let pending = Mutex(PendingWrites())
    private let now: @Sendable () -> Date

    /// One stored variant: primary key and variant key.
    private struct VariantID: Hashable {
        var key: String
        var variantKey: String
    }

    private struct PendingWrites {
        var accesses: [VariantID: Double] = [:]
        var outcomes: [CacheOutcome.Kind: CacheOutcome] = [:]
        var counts: [CacheOutcome.Kind: Int] = [:]
        /// 304 refreshes: new headers and times over a stored row, its body kept.
        var refreshes: [VariantID: CacheEntryRecord] = [:]
        /// When the oldest refresh was batched.
        var oldestRefresh: Date?
        var isEmpty: Bool { accesses.isEmpty && outcomes.isEmpty && refreshes.isEmpty }
    }

    /// Opens (creating if needed) the cache database at `path`.
    public init(path: String, capacity: Int = CacheDatabase.defaultCapacity, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.path = path
        self.capacity = capacity
        self.now = now
        do {
            database = try Self.openMigrated(path)
            recoveryWarning = nil
        } catch let error as StorageError {
            guard let reason = Self.rebuildReason(for: error, path: path) else { throw error }
            let aside = Self.unusedAsidePath(for: path, at: now())
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            database = try Self.openMigrated(path)
            Self.removeEarlierAsideFiles(of: path, keeping: aside)
            recoveryWarning = "cache database at \(path) was unreadable (\(reason)); moved it to \(aside) and started an empty cache"
        }
        do {
            lookup = try VariantLookup(path: path, busyTimeout: DatabaseFile.defaultBusyTimeout)
        } catch {
            throw DatabaseFile.classify(error, path: path)
        }
    }

    /// Why the file at `path` is moved aside and rebuilt: it is damaged, or it is this user's
    /// own regular file and still cannot be opened (its permissions were changed, say). `nil`
    /// otherwise: a directory in its place or a file of another user (a shared `--db-dir`) is
    /// not ours to move, and when the directory is the problem a new file would fail the same
    /// way; the caller then runs without the file (see `FreshServices`).
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

    /// Where a damaged file goes: `cache.sqlite.corrupt-<seconds>-<process id>`, with `-2`,
    /// `-3`… when that name is taken, so neither two processes recovering in the same second
    /// nor two recoveries in one process can collide (a failed move would leave the damaged
    /// file in place).
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

    private static func openMigrated(_ path: String) throws -> DatabaseQueue {
        let database = try DatabaseFile.openQueue(at: path, durability: .normal, migrator: CacheSchema.migrator, probeTables: ["cacheEntry", "cacheBody"])
        // Deleted content is zeroed where that costs no extra write, not on freed pages. Some
        // SQLite builds (Debian's) zero every freed page, and then replacing a 100 KB body
        // writes the old body's pages as zeros besides the new body's: half again the WAL
        // traffic and the checkpoints of a store. The freed pages are reused by the next stores.
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA secure_delete = FAST") }
        return database
    }

    deinit {
        try? flush()
        lookup.keepWALOnClose()
        try? database.writeWithoutTransaction { db in
            _ = fresh_sqlite3_keep_wal_on_close(db.sqliteConnection)
            guard Self.walSize(of: path) >= Self.keptWALBytes else { return }
            sqlite3_busy_timeout(db.sqliteConnection, Int32(Self.closingCheckpointWait * 1000))
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// The largest WAL a closing ``CacheDatabase`` leaves for the next process as it is.
    ///
    /// SQLite's last connection to close checkpoints the WAL into the file and deletes it,
    /// waiting for the disk three times (the WAL, the file, the directory). A cache hit writes
    /// only its bookkeeping (a few pages), so a run of `fresh get` would spend more on that
    /// checkpoint than on everything else it does. A WAL under this size is kept instead: the
    /// next process to open the file reads it back (SQLite rebuilds its index from the WAL, so
    /// the cost of an open grows with it). The first close that finds it larger copies it into
    /// the file and empties it (`wal_checkpoint(TRUNCATE)`, which needs no write access to the
    /// directory, where deleting the WAL would), waiting at most ``closingCheckpointWait`` for
    /// other processes' reads; a later close does it when they keep it busy. Nothing committed
    /// is at risk: a kept WAL is what a crash leaves, and SQLite recovers from it on the next open.
    static let keptWALBytes = 512 * 1024
    /// How long a closing checkpoint waits for other connections' reads, in seconds.
    static let closingCheckpointWait = 0.05

    private static func walSize(of path: String) -> Int {
        var status = stat()
        return stat(path + "-wal", &status) == 0 ? Int(status.st_size) : 0
    }

    // MARK: CacheStorage

    public func variants(forKey key: String) throws -> [StoredResponse] {
        let records = try lookup.variants(forKey: key)
        let refreshes = pending.withLock { $0.refreshes.isEmpty ? [:] : $0.refreshes.filter { $0.key.key == key } }
        return records.compactMap { record in
            refreshes[VariantID(key: record.key, variantKey: record.variantKey)].map(record.refreshed) ?? record
        }.compactMap { $0.storedResponse }
    }

    public func store(_ entry: StoredResponse) throws {
        try store(contentsOf: [entry])
    }

    /// Stores the entries in one transaction: what ``store(_:)`` does for each, for the price
    /// of one commit. An entry larger than the capacity is not stored (its older variant is
    /// removed) and is reported after the others are written.
    public func store(contentsOf entries: [StoredResponse]) throws {
        let at = now()
        let records = entries.map { CacheEntryRecord($0, accessedAt: at) }
        let batch = takePending()
        let tooLarge = try database.write { db in
            try Self.apply(batch, in: db)
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
        }
        if let tooLarge { throw CacheStorageError.entryTooLarge(size: tooLarge.size, capacity: capacity) }
    }

    /// Batches the new headers and times of a revalidated entry (see the type's notes); the
    /// batch is written now when its oldest refresh has waited ``batchDelay``.
    public func refresh(_ entry: StoredResponse) throws {
        let at = now()
        var record = CacheEntryRecord(entry, accessedAt: at)
        // The body stays in its row (the update does not touch it, a read takes it from there):
        // a sync revalidating a thousand pages within the delay must not hold a thousand bodies.
        record.body = Data()
        let due = pending.withLock { pending in
            pending.refreshes[VariantID(key: entry.key, variantKey: entry.variantKey)] = record
            let oldest = pending.oldestRefresh ?? at
            pending.oldestRefresh = oldest
            return at.timeIntervalSince(oldest) >= Self.batchDelay
        }
        if due { try flush() }
    }

    public func removeAll(forKey key: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ?", arguments: [key])
        }
    }

    public func recordAccess(key: String, variantKey: String) {
        let at = now().timeIntervalSince1970
        pending.withLock { $0.accesses[VariantID(key: key, variantKey: variantKey)] = at }
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

    /// Writes the batched use times and statistics now.
    public func flush() throws {
        let batch = takePending()
        guard !batch.isEmpty else { return }
        try database.write { db in try Self.apply(batch, in: db) }
    }

    // MARK: Maintenance (`fresh cache …`)

    /// Entry count, bytes and the counters of every outcome.
    public func statistics() throws -> CacheStatistics {
        try flush()
        return try database.read { db in
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
        }
    }

    /// Every stored entry, most recently used first.
    public func listEntries() throws -> [CacheListing] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT key, variantKey, status, size, lastAccess FROM cacheEntry ORDER BY lastAccess DESC").map { row in
                CacheListing(key: row["key"], variantKey: row["variantKey"], status: row["status"], size: row["size"],
                             lastAccess: Date(timeIntervalSince1970: row["lastAccess"]))
            }
        }
    }

    /// Removes every entry and resets the statistics.
    public func clear() throws {
        _ = takePending()
        try database.write { db in
            try db.execute(sql: "DELETE FROM cacheEntry; DELETE FROM cacheStat;")
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
    }

    /// Evicts least-recently-used entries until at most `maximumBytes` remain; returns how
    /// many were removed.
    public func prune(toFit maximumBytes: Int) throws -> Int {
        try flush()
        return try database.write { db in try CacheEntryRecord.evict(db, toFit: maximumBytes) }
    }

    // MARK: Batching

    private func takePending() -> PendingWrites {
        pending.withLock { pending in
            defer { pending = PendingWrites() }
            return pending
        }
    }

    private static func apply(_ batch: PendingWrites, in db: Database) throws {
        for record in batch.refreshes.values {
            try record.updateHeadersAndTimes(db)
        }
        for (variant, at) in batch.accesses {
            try db.cachedStatement(sql: "UPDATE cacheEntry SET lastAccess = ? WHERE key = ? AND variantKey = ?")
                .execute(arguments: [at, variant.key, variant.variantKey])
        }
        for (kind, total) in batch.outcomes {
            try db.cachedStatement(sql: """
                INSERT INTO cacheStat (kind, count, bytesSaved, bytesReceived) VALUES (?, ?, ?, ?)
                ON CONFLICT(kind) DO UPDATE SET count = count + excluded.count,
                    bytesSaved = bytesSaved + excluded.bytesSaved, bytesReceived = bytesReceived + excluded.bytesReceived
                """).execute(arguments: [kind.rawValue, batch.counts[kind] ?? 0, total.bytesSaved, total.bytesReceived])
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
