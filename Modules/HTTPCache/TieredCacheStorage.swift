/// A fast in-memory tier in front of a persistent storage: reads try memory first and fill
/// it from the back tier; writes go to both.
public struct TieredCacheStorage: CacheStorage {
    public let memory: MemoryCacheStorage
    public let backing: any CacheStorage

    public init(memory: MemoryCacheStorage, backing: any CacheStorage) {
        self.memory = memory
        self.backing = backing
    }

    public func variants(forKey key: String) throws -> [StoredResponse] {
        let cached = try memory.variants(forKey: key)
        if !cached.isEmpty { return cached }
        let stored = try backing.variants(forKey: key)
        for entry in stored.reversed() { storeInMemory(entry) }
        return stored
    }

    public func store(_ entry: StoredResponse) throws {
        try backing.store(entry)
        storeInMemory(entry)
    }

    /// The memory tier is smaller than the backing one: an entry too large for it simply
    /// lives in the backing tier only (its older copy is dropped from memory).
    private func storeInMemory(_ entry: StoredResponse) { try? memory.store(entry) }

    public func refresh(_ entry: StoredResponse) throws {
        try backing.refresh(entry)
        storeInMemory(entry)
    }

    public func removeAll(forKey key: String) throws {
        try backing.removeAll(forKey: key)
        try memory.removeAll(forKey: key)
    }

    public func recordAccess(key: String, variantKey: String) {
        memory.recordAccess(key: key, variantKey: variantKey)
        backing.recordAccess(key: key, variantKey: variantKey)
    }

    public func recordOutcome(_ outcome: CacheOutcome) { backing.recordOutcome(outcome) }
}
