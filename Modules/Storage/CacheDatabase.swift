import Foundation
import GRDB
import HTTPCache
import Synchronization

/// The HTTP cache database (`cache.sqlite`): the persistent ``CacheStorage``.
///
/// Entries are written atomically, one transaction each; the total size is kept under a byte
/// capacity by least-recently-used eviction. Use-time updates and statistics are batched in
/// memory and written with the next store or on ``flush()``, so a hit costs no write. The
/// cache is disposable: a damaged file is moved aside and rebuilt with a warning.
public final class CacheDatabase: CacheStorage {
    /// The default byte capacity: 100 MiB.
    public static let defaultCapacity = 100 * 1024 * 1024

    public let path: String
    /// The most bytes the entries may occupy.
    public let capacity: Int
    /// Set when the file was damaged and rebuilt while opening, with what happened.
    public let recoveryWarning: String?

    private let pool: DatabasePool
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
        var isEmpty: Bool { accesses.isEmpty && outcomes.isEmpty }
    }

    /// Opens (creating if needed) the cache database at `path`.
    public init(path: String, capacity: Int = CacheDatabase.defaultCapacity, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.path = path
        self.capacity = capacity
        self.now = now
        do {
            pool = try Self.openMigrated(path)
            recoveryWarning = nil
        } catch let error as StorageError {
            guard case .corrupted(_, let reason) = error else { throw error }
            let aside = "\(path).corrupt-\(Int(now().timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
            pool = try Self.openMigrated(path)
            recoveryWarning = "cache database at \(path) was unreadable (\(reason)); moved it to \(aside) and started an empty cache"
        }
    }

    private static func openMigrated(_ path: String) throws -> DatabasePool {
        try DatabaseFile.openPool(at: path, durability: .normal, migrator: CacheSchema.migrator, probeTable: "cacheEntry")
    }

    deinit {
        try? flush()
    }

    // MARK: CacheStorage

    public func variants(forKey key: String) throws -> [StoredResponse] {
        try pool.read { db in try CacheEntryRecord.variants(db, key: key).compactMap(\.storedResponse) }
    }

    public func store(_ entry: StoredResponse) throws {
        let record = CacheEntryRecord(entry, accessedAt: now())
        guard record.size <= capacity else {
            try removeVariant(key: entry.key, variantKey: entry.variantKey)
            throw CacheStorageError.entryTooLarge(size: record.size, capacity: capacity)
        }
        let batch = takePending()
        try pool.write { db in
            try Self.apply(batch, in: db)
            try record.save(db, onConflict: .replace)
            _ = try CacheEntryRecord.evict(db, toFit: capacity)
        }
    }

    public func refresh(_ entry: StoredResponse) throws {
        let record = CacheEntryRecord(entry, accessedAt: now())
        let batch = takePending()
        try pool.write { db in
            try Self.apply(batch, in: db)
            try record.updateHeadersAndTimes(db)
        }
    }

    private func removeVariant(key: String, variantKey: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ? AND variantKey = ?", arguments: [key, variantKey])
        }
    }

    public func removeAll(forKey key: String) throws {
        try pool.write { db in
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
        try pool.write { db in try Self.apply(batch, in: db) }
    }

    // MARK: Maintenance (`fresh cache …`)

    /// Entry count, bytes and the counters of every outcome.
    public func statistics() throws -> CacheStatistics {
        try flush()
        return try pool.read { db in
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
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT key, variantKey, status, size, lastAccess FROM cacheEntry ORDER BY lastAccess DESC").map { row in
                CacheListing(key: row["key"], variantKey: row["variantKey"], status: row["status"], size: row["size"],
                             lastAccess: Date(timeIntervalSince1970: row["lastAccess"]))
            }
        }
    }

    /// Removes every entry and resets the statistics.
    public func clear() throws {
        _ = takePending()
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cacheEntry; DELETE FROM cacheStat;")
        }
    }

    /// Evicts least-recently-used entries until at most `maximumBytes` remain; returns how
    /// many were removed.
    public func prune(toFit maximumBytes: Int) throws -> Int {
        try flush()
        return try pool.write { db in try CacheEntryRecord.evict(db, toFit: maximumBytes) }
    }

    // MARK: Batching

    private func takePending() -> PendingWrites {
        pending.withLock { pending in
            defer { pending = PendingWrites() }
            return pending
        }
    }

    private static func apply(_ batch: PendingWrites, in db: Database) throws {
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
