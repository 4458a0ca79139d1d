import Foundation
import HTTPCache
import HTTPTypes
import SyncEngine
import Testing

@Suite("The sync's page validators in the cache")
struct PageValidatorStorageTests {
    /// A write scheduled for later must not keep the storage (and with it the cache file) alive
    /// once the run has drained it: the file's close is where a large WAL is emptied, and a
    /// process that exits with the file still open never gets there.
    @Test func aDrainedStorageIsReleasedAtOnceThoughAWriteWasScheduled() throws {
        let backing = MemoryCacheStorage()
        let url = URL(string: "http://o.test/posts?page=2")!
        weak var released: PageValidatorStorage?
        do {
            let storage = PageValidatorStorage(backing: backing)
            released = storage
            try storage.store(StoredResponse(
                key: CacheKey.primary(method: .get, url: url), variantKey: "", url: url, method: .get, status: .ok,
                headerFields: [.eTag: #""p2""#], body: Data("[]".utf8), requestTime: Date(), responseTime: Date()))
            storage.drain()
            #expect(try storage.variants(forKey: CacheKey.primary(method: .get, url: url)).count == 1)
        }
        #expect(released == nil)
    }
}
