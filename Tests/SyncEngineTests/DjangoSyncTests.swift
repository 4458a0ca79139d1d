import Foundation
import HTTPCache
import JSON
import MirrorStore
import Pagination
import Storage
import SyncEngine
import Testing

/// Syncs against Django REST framework's own paginators: the envelopes real Django APIs send.
@Suite("Syncing a Django REST framework API", .serialized)
struct DjangoSyncTests {
    @Test(arguments: [
        ("cursor/posts/?page_size=10", "next-url (next)", 10),
        ("offset/posts/?limit=10", "next-url (next)", 10),
        ("pages/posts/?page_size=10", "next-url (next)", 10),
    ])
    func mirrorsEveryDjangoPaginator(_ route: String, _ style: String, _ pages: Int) async throws {
        let origin = try PeerOrigin.django(items: 95)
        let fixture = try SyncFixture()
        let first = try await fixture.sync("\(origin.baseURL)/api/\(route)")
        let second = try await fixture.sync("\(origin.baseURL)/api/\(route)")
        #expect(first.pages == pages && first.totalItems == 95 && first.created == 95 && first.complete)
        #expect(try fixture.store.collections().first?.plan?.style.summary == style)
        // No Cache-Control: every page is revalidated with the ETag Django's middleware sends.
        #expect(second.notModified == pages && second.unchangedPages == pages && second.bytesReceived == 0, "\(second)")
        #expect(try fixture.items("posts").map(\.key) == (1...95).map { ItemKey.integer($0) })
    }

    @Test func compressedPagesAreDecodedAndBothSizesReported() async throws {
        let origin = try PeerOrigin.django(items: 95, gzip: true)
        let fixture = try SyncFixture()
        let first = try await fixture.sync("\(origin.baseURL)/api/cursor/posts/?page_size=10")
        #expect(first.totalItems == 95 && first.complete)
        // Ten pages of JSON squeeze to a fraction on the wire; the mirror holds the JSON itself.
        #expect(first.bytesReceived > 0 && first.bytesReceived * 2 < first.bytesDecoded, "\(first)")
        #expect(first.line.contains("bytes received (\(first.bytesDecoded) decoded)"))
        #expect(try fixture.items("posts").first?.json.hasPrefix("{") == true)
        // GZipMiddleware weakens the ETag of the compressed 200; the 304s still match it.
        let second = try await fixture.sync("\(origin.baseURL)/api/cursor/posts/?page_size=10")
        #expect(second.notModified == 10 && second.bytesReceived == 0 && second.changed == 0, "\(second)")
    }

    @Test func stringKeysFromAnotherMember() async throws {
        let origin = try PeerOrigin.django(items: 200)
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(origin.baseURL)/api/users/?page_size=7")
        #expect(summary.totalItems == 21)
        #expect(try fixture.items("users").first?.key == .string("user-0001"))
        #expect(try fixture.store.collections().first?.plan?.key == JSONPath(["username"]))
    }

    @Test func headersReachTheAPIAndAreNeverStored() async throws {
        let origin = try PeerOrigin.django(items: 30)
        let fixture = try SyncFixture()
        await #expect(throws: SyncError.self) { try await fixture.sync("\(origin.baseURL)/api/private/posts/") }
        let summary = try await fixture.sync("\(origin.baseURL)/api/private/posts/") { $0.headerFields[.authorization] = "Bearer letmein" }
        #expect(summary.totalItems == 30)
        let database = try Data(contentsOf: URL(fileURLWithPath: StorageLocation(directory: fixture.directory).itemDatabasePath))
        #expect(database.range(of: Data("letmein".utf8)) == nil)
    }

    @Test func aThrottledAPIIsMirroredByWaitingForRetryAfter() async throws {
        let origin = try PeerOrigin.django(items: 60, throttle: "3/s")
        let fixture = try SyncFixture(realTime: true)
        let engine = CollectionSync(network: fixture.services, store: fixture.store)
        let summary = try await engine.run(SyncOptions(url: URL(string: "\(origin.baseURL)/api/limited/posts/?page_size=5")!))
        #expect(summary.totalItems == 60 && summary.pages == 12)
        #expect(summary.retries >= 1)
    }
}
