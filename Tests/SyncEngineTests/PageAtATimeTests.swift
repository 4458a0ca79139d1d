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

@Suite("Syncing a page at a time, and choosing what rows show")
struct PageAtATimeTests {
    @Test func aRunLimitedToOnePageLeavesThePassToResume() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 25, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        let first = try await fixture.sync(url) { $0.maximumPages = 1 }
        #expect(first.pages == 1 && !first.complete && first.totalItems == 10)
        let second = try await fixture.sync(url) { $0.maximumPages = 1 }
        #expect(second.resumedAtPage == 2 && second.pages == 1 && second.totalItems == 20)
        let rest = try await fixture.sync(url)
        await server.stop()
        // The last page, then the two read before it again (unchanged: two 304s).
        #expect(rest.complete && rest.totalItems == 25 && rest.pages == 3 && rest.revisitedPages == 2 && rest.notModified == 2)
    }

    /// A resumed run that fails before writing a page still says where it stood: its
    /// collection and the page it resumed at (the summary `--json` prints on failure).
    @Test func aResumedRunThatStopsAtOnceReportsWhereItStood() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 25, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url) { $0.maximumPages = 1 }
        await server.stop()
        let stopped = Mutex<SyncSummary?>(nil)
        await #expect(throws: (any Error).self) {
            _ = try await fixture.engine.run({ var options = SyncOptions(url: URL(string: url)!); options.retry = RetryPolicy(retries: 0); return options }()) { event in
                if case .stopped(let summary) = event { stopped.withLock { $0 = summary } }
            }
        }
        let summary = try #require(stopped.withLock { $0 })
        #expect(summary.collection == "posts" && summary.resumedAtPage == 2 && summary.pagesWritten == 0 && summary.totalItems == 10)
        #expect(!summary.complete && summary.seconds > 0)
    }
}
