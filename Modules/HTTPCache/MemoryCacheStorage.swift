import Synchronization

/// A byte-bounded, least-recently-used cache storage in memory.
///
/// Serves as the fast tier in front of the SQLite cache database (see ``TieredCacheStorage``)
/// and as the storage of unit tests.
public final class MemoryCacheStorage: CacheStorage {
    private struct State {
        var entries: [String: [StoredResponse]] = [:]
        /// Keys from least to most recently used.
        var recency: [String] = []
        var bytes = 0
        var outcomes: [CacheOutcome] = []
    }

    private let state = Mutex(State())
    /// The most bytes kept; older entries are evicted first.
    public let capacity: Int

    public init(capacity: Int = 8 * 1024 * 1024) {
        self.capacity = capacity
    }

    public func variants(forKey key: String) throws -> [StoredResponse] {
        state.withLock { $0.entries[key] ?? [] }
    }

    public func store(_ entry: StoredResponse) throws {
        guard entry.approximateSize <= capacity else { return }
        state.withLock { state in
            var variants = state.entries[entry.key] ?? []
            if let index = variants.firstIndex(where: { $0.variantKey == entry.variantKey }) {
                state.bytes -= variants[index].approximateSize
                variants.remove(at: index)
            }
            variants.insert(entry, at: 0)
            state.entries[entry.key] = variants
            state.bytes += entry.approximateSize
            Self.touch(entry.key, in: &state)
            while state.bytes > capacity, let oldest = state.recency.first {
                Self.remove(oldest, from: &state)
            }
        }
    }

    public func removeAll(forKey key: String) throws {
        state.withLock { Self.remove(key, from: &$0) }
    }

    public func recordAccess(key: String, variantKey: String) {
        state.withLock { Self.touch(key, in: &$0) }
    }

    public func recordOutcome(_ outcome: CacheOutcome) {
        state.withLock { $0.outcomes.append(outcome) }
    }

    /// Bytes currently held.
    public var byteCount: Int { state.withLock { $0.bytes } }
    /// Every outcome recorded so far, oldest first.
    public var outcomes: [CacheOutcome] { state.withLock { $0.outcomes } }

    private static func touch(_ key: String, in state: inout State) {
        state.recency.removeAll { $0 == key }
        state.recency.append(key)
    }

    private static func remove(_ key: String, from state: inout State) {
        state.bytes -= (state.entries.removeValue(forKey: key) ?? []).reduce(0) { $0 + $1.approximateSize }
        state.recency.removeAll { $0 == key }
    }
}
