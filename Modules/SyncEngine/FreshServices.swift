import CurlTransport
import Foundation
import HTTPCache
import Storage

/// The composition root both clients use: the cache database with its memory tier, the
/// libcurl transport and the caching client over them, and the item database on demand.
public final class FreshServices: Sendable {
    public let location: StorageLocation
    public let cacheDatabase: CacheDatabase
    public let client: CachingClient
    /// Things the user should hear about, such as a rebuilt cache database.
    public let warnings: [String]

    /// Opens the cache database at `location` (rebuilding it if it is damaged).
    /// - Parameters:
    ///   - cacheCapacity: byte capacity of the cache database.
    ///   - transport: the network; CurlTransport unless a test passes another.
    public init(location: StorageLocation, cacheCapacity: Int = CacheDatabase.defaultCapacity,
                transport: any HTTPTransport = CurlTransport()) throws {
        self.location = location
        cacheDatabase = try CacheDatabase(path: location.cacheDatabasePath, capacity: cacheCapacity)
        warnings = cacheDatabase.recoveryWarning.map { [$0] } ?? []
        let storage = TieredCacheStorage(memory: MemoryCacheStorage(capacity: min(cacheCapacity, 8 * 1024 * 1024)), backing: cacheDatabase)
        client = CachingClient(transport: transport, storage: storage)
    }

    /// Opens the item database (the synced posts).
    public func openItemDatabase() throws -> ItemDatabase {
        try ItemDatabase(path: location.itemDatabasePath)
    }

    /// Waits for background revalidations and writes batched cache bookkeeping (use times,
    /// statistics, the refreshed headers of 304s).
    public func finish() async {
        await client.waitForBackgroundRevalidations()
        try? cacheDatabase.flush()
    }

    /// Runs `work`, then ``finish()`` whether it returned or threw: what a failed or interrupted
    /// run learned (a 304 before the failure, say) still reaches the cache file.
    public func finishing<Value>(_ work: () async throws -> Value) async throws -> Value {
        do {
            let value = try await work()
            await finish()
            return value
        } catch {
            await finish()
            throw error
        }
    }
}
