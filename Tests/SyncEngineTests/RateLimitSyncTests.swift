import Foundation
import MirrorStore
@testable import MockServer
import SyncEngine
import Testing

/// Limits a server states or enforces, met by a sync: nothing sent past a stated budget, a 403
/// that says how long waited out, a limit that states nothing waited a minute and more, and
/// never more requests in flight than the origin is given.
@Suite("Syncs and the limits servers state")
struct RateLimitSyncTests {
    /// The answers of `server` by status.
    private func statuses(_ server: RunningMockServer) -> [String: Int] { server.statistics.byStatus }

    @Test func aStatedBudgetIsWaitedForBeforeItIsSpentAndOneRequestGoesAtATime() async throws {
        // Real time: the server's window is what is judged. 4 requests in 3 s, 6 pages: the budget
        // runs out within the window however slowly a loaded machine sends (with a window of one
        // second, a sync slower than 4 requests a second never met the limit).
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 30, rateLimit: RateLimit(requests: 4, window: .seconds(3)), rateLimitFields: [.xRateLimit, .ietf]))
        let fixture = try SyncFixture(realTime: true)
        let summary = try await fixture.sync(server.baseURL + "/posts?limit=5")
        #expect(summary.complete && summary.totalItems == 30)
        #expect(statuses(server)["429"] == nil, "no request past the stated budget")
        #expect((summary.secondsWaitedFor["rate limit"] ?? 0) > 0 && summary.line.contains("waited"))
        #expect(server.statistics.maxInFlight == 1)
        await server.stop()
    }

    @Test func a403ThatCarriesRetryAfterIsWaitedOutLikeA429() async throws {
        // 3 requests in 3 s, 6 pages: the 4th is refused within the window even on a loaded machine.
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 30, rateLimit: RateLimit(requests: 3, window: .seconds(3)), rateLimitStatus: 403, rateLimitFields: [.retryAfter]))
        let fixture = try SyncFixture(realTime: true)
        let summary = try await fixture.sync(server.baseURL + "/posts?limit=5")
        #expect(summary.complete && summary.totalItems == 30 && summary.retries >= 1)
        #expect(statuses(server)["403"].map { $0 >= 1 } == true && (summary.secondsWaitedFor["Retry-After"] ?? 0) > 0)
        await server.stop()
    }

    @Test func aLimitThatStatesNoWaitIsWaitedAMinuteThenTwoThenGivenUpPastMaxWait() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 30, secondaryLimit: .rate(RateLimit(requests: 2, window: .seconds(3600)))))
        let fixture = try SyncFixture()
        await #expect {
            try await fixture.sync(server.baseURL + "/posts?limit=5")
        } throws: { error in
            guard case SyncError.gaveUp(_, _, 403, let wait?) = error else { return false }
            return wait == .seconds(240)
        }
        #expect(fixture.waits.withLock { $0 } == [.seconds(60), .seconds(120)])
        await server.stop()
    }

    @Test func aPermissionRefusalIsNotRetried() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 10, faults: [FaultRule(route: "/posts", failure: .status, status: 403)]))
        let fixture = try SyncFixture()
        await #expect { try await fixture.sync(server.baseURL + "/posts?limit=5") } throws: { error in
            if case SyncError.httpStatus(403, _, _) = error { return true }
            return false
        }
        #expect(fixture.waits.withLock { $0 }.isEmpty)
        await server.stop()
    }

    @Test func parallelBoundsTheRequestsInFlightToTheOrigin() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 100, maxAge: 0))
        let fixture = try SyncFixture()
        _ = try await fixture.sync(server.baseURL + "/posts?limit=5")
        // A re-sync guesses pages ahead of the walk: as many at once as the origin is given.
        let summary = try await fixture.sync(server.baseURL + "/posts?limit=5") { $0.parallel = 2 }
        #expect(summary.notModified == 20)
        #expect(server.statistics.maxInFlight <= 2)
        await server.stop()
    }
}
