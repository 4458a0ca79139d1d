/// Where the cache keeps its entries. Storage's SQLite cache database is the live
/// implementation; ``MemoryCacheStorage`` serves tests and the in-memory tier.
///
/// All methods are synchronous: both implementations answer in microseconds, and a
/// synchronous seam keeps the caching client free of extra suspension points.
public protocol CacheStorage: Sendable {
    /// Every stored variant for a primary key, most recently stored first.
    func variants(forKey key: String) throws -> [StoredResponse]
    /// Stores an entry, replacing the variant with the same key and variant key.
    func store(_ entry: StoredResponse) throws
    /// Stores several entries, reporting the first refusal after storing the others;
    /// storages with transactions write them in one.
    func store(contentsOf entries: [StoredResponse]) throws
    /// Replaces a stored variant's header fields and times after a 304, keeping its body.
    /// Storages that can update in place avoid rewriting the body.
    func refresh(_ entry: StoredResponse) throws
    /// Removes every variant stored under a primary key.
    func removeAll(forKey key: String) throws
    /// Notes that a variant was used, for least-recently-used eviction. May be batched.
    func recordAccess(key: String, variantKey: String)
    /// Counts one outcome for `fresh cache stats`.
    func recordOutcome(_ outcome: CacheOutcome)
}

/// Why a storage refused an entry.
public enum CacheStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry is larger than the whole storage; any older variant was removed.
    case entryTooLarge(size: Int, capacity: Int)

    public var description: String {
        switch self {
        case .entryTooLarge(let size, let capacity): "entry of \(size) bytes is larger than the cache capacity of \(capacity)"
        }
    }
}

/// What one request cost, as counted by the cache's statistics.
public struct CacheOutcome: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Answered from storage without contacting the origin.
        case hit
        /// Answered from storage after a 304.
        case revalidated
        /// Downloaded in full.
        case miss
    }

    public var kind: Kind
    /// Body bytes that did not cross the network because storage answered.
    public var bytesSaved: Int
    /// Body bytes that did cross the network.
    public var bytesReceived: Int

    public init(kind: Kind, bytesSaved: Int, bytesReceived: Int) {
        self.kind = kind
        self.bytesSaved = bytesSaved
        self.bytesReceived = bytesReceived
    }
}

extension CacheStorage {
    public func refresh(_ entry: StoredResponse) throws { try store(entry) }

    public func store(contentsOf entries: [StoredResponse]) throws {
        var refusal: (any Error)?
        for entry in entries {
            do { try store(entry) } catch { refusal = refusal ?? error }
        }
        if let refusal { throw refusal }
    }

    public func recordAccess(key: String, variantKey: String) {}
    public func recordOutcome(_ outcome: CacheOutcome) {}
}
