import Composition
import Foundation
import HTTPCache
import JSON
import MirrorStore
import Pacing
@testable import MockServer
import Pagination
import Storage
import SyncEngine
import Synchronization
import Testing

@Suite("FreshServices writes what a run learned, even when it fails")
struct FreshServicesFinishingTests {
    struct Interrupted: Error {}

    @Test func aRevalidationBeforeAFailureReachesTheCacheFile() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 5, maxAge: 0))
        let fixture = try SyncFixture()
        let url = URL(string: "\(server.baseURL)/posts/1")!
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
        await server.stop()
        #expect(storedAfter.responseTime > storedBefore.responseTime)
        #expect(storedAfter.body == storedBefore.body)
    }
}
