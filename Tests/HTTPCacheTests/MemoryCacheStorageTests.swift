import Foundation
import HTTPCache
import HTTPTypes
import Testing

@Suite("Memory tier (LRU)")
struct MemoryCacheStorageTests {
    func entry(_ path: String, bytes: Int) -> StoredResponse {
        let url = URL(string: "http://o.test\(path)")!
        return StoredResponse(key: CacheKey.primary(method: .get, url: url), variantKey: "", url: url, method: .get,
                              status: .ok, headerFields: [:], body: Data(count: bytes),
                              requestTime: Date(timeIntervalSince1970: 0), responseTime: Date(timeIntervalSince1970: 0))
    }

    @Test func evictsTheLeastRecentlyUsedKeyFirst() throws {
        let memory = MemoryCacheStorage(capacity: 300)
        try memory.store(entry("/a", bytes: 100))
        try memory.store(entry("/b", bytes: 100))
        memory.recordAccess(key: entry("/a", bytes: 0).key, variantKey: "")
        try memory.store(entry("/c", bytes: 100))
        try memory.store(entry("/d", bytes: 50))
        #expect(try memory.variants(forKey: entry("/b", bytes: 0).key).isEmpty)
        #expect(try !memory.variants(forKey: entry("/a", bytes: 0).key).isEmpty)
        #expect(memory.byteCount <= 300)
    }

    @Test func entriesLargerThanTheCapacityAreNotKept() throws {
        let memory = MemoryCacheStorage(capacity: 50)
        #expect(throws: CacheStorageError.entryTooLarge(size: 500, capacity: 50)) { try memory.store(entry("/big", bytes: 500)) }
        #expect(memory.byteCount == 0)
    }

    @Test func tieredStorageFillsMemoryFromTheBackingTier() throws {
        let backing = MemoryCacheStorage()
        let tiered = TieredCacheStorage(memory: MemoryCacheStorage(), backing: backing)
        try backing.store(entry("/x", bytes: 10))
        #expect(try tiered.variants(forKey: entry("/x", bytes: 0).key).count == 1)
        #expect(try tiered.memory.variants(forKey: entry("/x", bytes: 0).key).count == 1)
    }
}
