import Composition
import Foundation
import HTTPCache
@testable import MockServer
import Storage
import SyncEngine
import Testing

@Suite("FreshServices: the cache is disposable")
struct FreshServicesTests {
    /// `FRESH_SPEEDUPS` that names nothing known is said, and every speed-up stays on.
    @Test func anUnknownSpeedUpIsSaidAndEveryOneIsUsed() {
        #expect(FreshServices.speedUps(configured: "none") == ([], nil))
        #expect(FreshServices.speedUps(configured: nil).speedUps == .all)
        let (speedUps, warning) = FreshServices.speedUps(configured: "-warp-drive")
        #expect(speedUps == .all)
        #expect(warning?.hasPrefix("FRESH_SPEEDUPS='-warp-drive' names no speed-ups (none, all, or read-ahead, chain-lookahead") == true)
    }

    @Test func anUnusableCacheDirectoryLeavesRequestsWorkingWithAMemoryCache() async throws {
        let parent = NSTemporaryDirectory() + "fresh-services-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let blocker = parent + "/a-file"
        try Data().write(to: URL(fileURLWithPath: blocker))
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 3, maxAge: 60))

        let services = FreshServices(location: StorageLocation(directory: blocker + "/db"))
        let request = TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts/1")!)
        let first = try await services.client.send(request)
        let second = try await services.client.send(request)
        await services.finish()
        await server.stop()

        #expect(services.cacheDatabase == nil)
        #expect(services.warnings.count == 1)
        #expect(services.warnings.first?.contains("\(blocker) is a file, not a directory") == true)
        #expect(services.warnings.first?.hasSuffix("this run caches in memory only") == true)
        #expect(first.status == .ok && first.decision.outcome == .downloaded)
        #expect(second.decision.outcome == .freshHit)
    }
}
