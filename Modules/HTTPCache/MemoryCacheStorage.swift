import Synchronization

/// A byte-bounded, least-recently-used cache storage in memory (tests, and the fast tier of
/// ``TieredCacheStorage``). A use costs one dictionary write; finding the least recently used
/// key is left to eviction, which is rare.
public final class MemoryCacheStorage: CacheStorage {
    private struct State {
        var entries: [String: [StoredResponse]] = [:]
        /// A counter value per key, bumped on every use: the smallest is the least recent.
        var lastUse: [String: UInt64] = [:]
        var useCounter: UInt64 = 0
        var bytes = 0

        mutating func touch(_ key: String) {
            useCounter += 1
            lastUse[key] = useCounter
        }

        mutating func remove(_ key: String) {
            bytes -= (entries.removeValue(forKey: key) ?? []).reduce(0) { $0 + $1.approximateSize }
            lastUse[key] = nil
        }
    }

    private let state = Mutex(State())
    /// The most bytes kept; older entries are evicted first.
    public let capacity: Int

    public init(capacity: Int = 8 * 1024 * 1024) { self.capacity = capacity }

    public func variants(forKey key: String) throws -> [StoredResponse] { state.withLock { $0.entries[key] ?? [] } }

    public func store(_ entry: StoredResponse) throws {
        guard entry.approximateSize <= capacity else {
            state.withLock { $0.remove(entry.key) }
            throw CacheStorageError.entryTooLarge(size: entry.approximateSize, capacity: capacity)
        }
        state.withLock { state in
            var variants = state.entries[entry.key] ?? []
            if let index = variants.firstIndex(where: { $0.variantKey == entry.variantKey }) {
                state.bytes -= variants[index].approximateSize
                variants.remove(at: index)
            }
            variants.insert(entry, at: 0)
            state.entries[entry.key] = variants
            state.bytes += entry.approximateSize
            state.touch(entry.key)
            while state.bytes > capacity, let oldest = state.lastUse.min(by: { $0.value < $1.value })?.key {
                state.remove(oldest)
            }
        }
    }

    public func removeAll(forKey key: String) throws { state.withLock { $0.remove(key) } }
    public func recordAccess(key: String, variantKey: String) { state.withLock { $0.touch(key) } }

    /// Bytes currently held.
    public var byteCount: Int { state.withLock { $0.bytes } }
}
