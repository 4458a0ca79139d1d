import Foundation
import HTTPCache
import MockServer
import Models
import Storage
import SyncEngine
import Testing

/// A temporary data directory, a mock server on a free port, and the real services.
struct SyncFixture {
    let directory: String
    let server: RunningMockServer
    let services: FreshServices
    let items: ItemDatabase

    static func start(_ configuration: MockServerConfiguration) async throws -> SyncFixture {
        let directory = NSTemporaryDirectory() + "fresh-sync-tests-" + UUID().uuidString
        let server = try await RunningMockServer.start(configuration)
        let services = FreshServices(location: StorageLocation(directory: directory))
        return SyncFixture(directory: directory, server: server, services: services, items: try services.openItemDatabase())
    }

    var postsURL: URL { URL(string: "\(server.baseURL)/posts?limit=10")! }

    func sync() async throws -> SyncSummary {
        try await PostSync(client: services.client, items: items).run(url: postsURL)
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite("PostSync through the cache into SQLite, against fresh-mock")
struct PostSyncTests {
    @Test func firstSyncDownloadsEveryPageAndStoresEveryPost() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 35))
        let summary = try await fixture.sync()
        await fixture.stop()
        #expect(summary.pages == 4)
        #expect(summary.fullResponses == 4)
        #expect(summary.items == 35)
        #expect(summary.bytesReceived > 0)
        #expect(try fixture.items.posts().count == 35)
        #expect(try fixture.items.pages(of: "\(fixture.server.baseURL)/posts?limit=10").last?.nextCursor == "0")
    }

    @Test func secondSyncWhileFreshSendsNothing() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 35, maxAge: 60))
        _ = try await fixture.sync()
        let second = try await fixture.sync()
        await fixture.stop()
        #expect(second.requestsSent == 0)
        #expect(second.freshHits == 4)
    }

    @Test func staleSyncRevalidatesAndOnlyTheChangedPageIsDownloaded() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 35, maxAge: 0))
        _ = try await fixture.sync()
        let unchanged = try await fixture.sync()
        #expect(unchanged.notModified == 4)
        #expect(unchanged.bytesReceived == 0)
        let created = try await fixture.services.client.send(TransportRequest(
            method: .post, url: URL(string: "\(fixture.server.baseURL)/posts")!, headerFields: [.contentType: "application/json"],
            body: Data(#"{"title":"새 글","body":"내용","author":"test"}"#.utf8)))
        #expect(created.status == .created)
        let changed = try await fixture.sync()
        await fixture.stop()
        #expect(changed.fullResponses == 1)
        #expect(changed.notModified == 3)
        #expect(try fixture.items.posts().count == 36)
    }

    @Test func invalidJSONStopsWithAClearErrorAndKeepsEarlierPages() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 35))
        _ = try await fixture.sync()
        let broken = try await SyncFixture.start(MockServerConfiguration(postCount: 35, faults: [FaultRule(route: "/posts", failure: .invalidJSON)]))
        await #expect {
            try await PostSync(client: broken.services.client, items: fixture.items).run(url: broken.postsURL)
        } throws: { error in
            guard case SyncError.invalidJSON = error else { return false }
            return true
        }
        await broken.stop()
        await fixture.stop()
        #expect(try fixture.items.posts().count == 35)
    }

    @Test func serverErrorIsReportedWithTheServersMessage() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(faults: [FaultRule(route: "/posts", failure: .status, status: 503)]))
        await #expect {
            try await fixture.sync()
        } throws: { error in
            guard case SyncError.httpStatus(503, _, _) = error else { return false }
            return true
        }
        await fixture.stop()
    }

    @Test func unreachableServerWithStaleCacheIsOfflineNotSuccess() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 15, maxAge: 0))
        _ = try await fixture.sync()
        await fixture.server.stop()
        await #expect {
            try await fixture.sync()
        } throws: { error in
            ErrorDescription.isOffline(error)
        }
        await fixture.stop()
        #expect(try fixture.items.posts().count == 15)
    }

    @Test func fetcherShowsStoredPostsAndReportsOffline() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 12, maxAge: 0))
        let sync = PostSync(client: fixture.services.client, items: fixture.items)
        _ = try await sync.run(url: fixture.postsURL)
        await fixture.server.stop()
        let fetcher = PostsFetcher.make(items: fixture.items, sync: sync, url: fixture.postsURL)
        await fetcher.refresh()
        await fixture.stop()
        #expect(fetcher.state.value?.count == 12)
        guard case .failed(let failure) = fetcher.state.status else {
            Issue.record("expected a failed refresh, got \(fetcher.state.status)")
            return
        }
        #expect(failure.isOffline)
    }

    @Test func postsDeletedOnTheServerAreDeletedLocally() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 25, maxAge: 0))
        _ = try await fixture.sync()
        let deleted = try await fixture.services.client.send(TransportRequest(
            method: .delete, url: URL(string: "\(fixture.server.baseURL)/posts/5")!))
        #expect(deleted.status.code < 300)
        let summary = try await fixture.sync()
        await fixture.stop()
        #expect(summary.deleted == 1)
        #expect(try fixture.items.posts().map(\.id).contains(5) == false)
        #expect(try fixture.items.posts().count == 24)
    }

    @Test func unreachableServerWithNoCacheEntriesIsOfflineNotAServerError() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 15, noCache: true))
        _ = try await fixture.sync()
        await fixture.server.stop()
        await #expect {
            try await fixture.sync()
        } throws: { error in
            guard case SyncError.offline = error else { return false }
            return true
        }
        await fixture.stop()
    }
}

@Suite("FreshServices writes what a run learned, even when it fails")
struct FreshServicesFinishingTests {
    struct Interrupted: Error {}

    @Test func aRevalidationBeforeAFailureReachesTheCacheFile() async throws {
        let fixture = try await SyncFixture.start(MockServerConfiguration(postCount: 5, maxAge: 0))
        let url = URL(string: "\(fixture.server.baseURL)/posts/1")!
        _ = try await fixture.services.client.send(TransportRequest(method: .get, url: url))
        let storedBefore = try #require(try fixture.services.cacheDatabase?.variants(forKey: CacheKey.primary(method: .get, url: url)).first)
        await #expect(throws: Interrupted.self) {
            try await fixture.services.finishing {
                let revalidated = try await fixture.services.client.send(TransportRequest(method: .get, url: url))
                #expect(revalidated.decision.outcome == .revalidated)
                throw Interrupted()
            }
        }
        let otherProcess = try CacheDatabase(path: StorageLocation(directory: fixture.directory).cacheDatabasePath)
        let storedAfter = try #require(try otherProcess.variants(forKey: CacheKey.primary(method: .get, url: url)).first)
        await fixture.stop()
        #expect(storedAfter.responseTime > storedBefore.responseTime)
        #expect(storedAfter.body == storedBefore.body)
    }
}
