import Composition
import Foundation
import HTTPCache
import HTTPFields
import HTTPTypes
@testable import MockServer
import Storage
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

    /// An entry not written yet answers a lookup: a page asked again in the same run (a catch-up,
    /// a second look) is asked with the ETag just received, not the one the file still holds.
    /// The last sync's ETag came back as a 304 for a page that had changed back to it meanwhile,
    /// and the catch-up took the page for the one just read (two items missing, exit 0).
    @Test func anEntryNotWrittenYetAnswersALookup() throws {
        let backing = MemoryCacheStorage()
        let url = URL(string: "http://o.test/posts?page=1")!
        let key = CacheKey.primary(method: .get, url: url)
        func entry(_ tag: String) -> StoredResponse {
            StoredResponse(key: key, variantKey: "", url: url, method: .get, status: .ok, headerFields: [.eTag: tag],
                           body: Data("[]".utf8), requestTime: Date(), responseTime: Date())
        }
        let storage = PageValidatorStorage(backing: backing)
        try storage.store(entry(#""old""#))
        storage.drain()
        try storage.store(entry(#""new""#))
        #expect(try storage.variants(forKey: key).map { $0.headerFields[.eTag] } == [#""new""#])
        storage.drain()
        #expect(try storage.variants(forKey: key).map { $0.headerFields[.eTag] } == [#""new""#])
    }

    /// A page is stored without its body: what is kept of it is typed (``OmittedBody``: the
    /// length, and the digest when there is no ETag), not made-up header fields.
    @Test func aPageIsKeptAsItsLengthAndDigest() throws {
        let storage = PageValidatorStorage(backing: MemoryCacheStorage())
        let url = URL(string: "http://o.test/posts?page=3")!
        let key = CacheKey.primary(method: .get, url: url)
        try storage.store(StoredResponse(key: key, variantKey: "", url: url, method: .get, status: .ok, headerFields: [.cacheControl: "max-age=60"],
                                         body: Data("[1,2]".utf8), requestTime: Date(), responseTime: Date()))
        storage.drain()
        let kept = try #require(try storage.variants(forKey: key).first)
        #expect(kept.body.isEmpty && kept.headerFields == [.cacheControl: "max-age=60"])
        #expect(kept.omittedBody == OmittedBody(length: 5, digest: FNV1a64.hex(Data("[1,2]".utf8))))
    }

    /// Another machine's cache never saw the pages of a mirror it shares: the ETags the mirror
    /// keeps go through the seam (``PageValidators``), and every page costs a 304.
    @Test func aCacheThatNeverSawThePagesAsksWithTheMirrorsETags() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        let otherCache = NSTemporaryDirectory() + "fresh-other-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: otherCache) }
        let otherMachine = FreshServices(location: StorageLocation(directory: otherCache))
        let again = try await CollectionSync(network: otherMachine, store: fixture.store).run(SyncOptions(url: URL(string: url)!))
        let third = try await CollectionSync(network: otherMachine, store: fixture.store).run(SyncOptions(url: URL(string: url)!))
        await otherMachine.finish()
        await server.stop()
        #expect(again.pages == 3 && again.notModified == 3 && again.totalItems == 30)
        #expect(third.notModified == 3 && third.totalItems == 30)
    }
}
