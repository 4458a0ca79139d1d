import HTTPTypes
import Models
import NIOCore
import Testing

@testable import MockServer

@Suite("Fault injection")
struct FaultInjectionTests {
    @Test func failTheFirstNRequestsThenRecoverWithRetryAfter() async throws {
        let rule = FaultRule(route: "/posts", failure: .status, status: 429, first: 2, retryAfter: 3)
        try await withMockServer(MockServerConfiguration(faults: [rule])) { _, client in
            for _ in 0..<2 {
                let failed = try await client.get("/posts")
                #expect(failed.status == .tooManyRequests)
                #expect(failed.headers[.retryAfter] == "3")
                #expect(failed.errorCode == "injected_fault")
            }
            #expect(try await client.get("/posts").status == .ok)
            #expect(try await client.get("/feed").status == .ok)
        }
    }

    /// An outage partway through a listing: the first two requests pass, the next fail; with
    /// `first`, only that many fail, then the route recovers. On the command line as in JSON.
    @Test func afterLetsTheFirstNRequestsPassThenFails() async throws {
        let rules = [try FaultRule(spec: "route=/posts,status=500,after=2,first=1"), FaultRule(route: "/feed", failure: .status, status: 500, after: 1)]
        #expect(rules[0] == FaultRule(route: "/posts", failure: .status, status: 500, first: 1, after: 2))
        try await withMockServer(MockServerConfiguration(faults: rules)) { _, client in
            var posts: [Int] = []
            for _ in 0..<4 { posts.append(try await client.get("/posts").status.code) }
            #expect(posts == [200, 200, 500, 200])
            var feed: [Int] = []
            for _ in 0..<3 { feed.append(try await client.get("/feed").status.code) }
            #expect(feed == [200, 500, 500])
        }
        #expect(throws: SpecError.self) { try FaultRule(spec: "route=/posts,status=500,after=0") }
    }

    @Test func serviceUnavailableDefaultsToRetryAfterOne() async throws {
        try await withMockServer(MockServerConfiguration(faults: [FaultRule(failure: .status)])) { _, client in
            let response = try await client.get("/articles")
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect(try await client.get("/_admin/stats").status == .ok)
        }
    }

    @Test func errorRateIsSeededSoARunRepeatsExactly() async throws {
        let run: @Sendable () async throws -> [Int] = {
            let rule = FaultRule(failure: .status, status: 500, rate: 0.5)
            return try await withMockServer(MockServerConfiguration(seed: 3, faults: [rule])) { _, client in
                var statuses: [Int] = []
                for _ in 0..<30 { statuses.append(try await client.get("/feed").status.code) }
                return statuses
            }
        }
        let first = try await run()
        #expect(first == (try await run()))
        #expect(first.contains(500) && first.contains(200))
    }

    @Test func truncatedBodyHasAMatchingContentLengthAndIsNotJSON() async throws {
        try await withMockServer(MockServerConfiguration(faults: [FaultRule(route: "/posts", failure: .truncate)])) { _, client in
            let response = try await client.get("/posts")
            let body = try #require(response.body)
            #expect(response.headers[.contentLength] == String(body.readableBytes))
            #expect(throws: (any Error).self) { try response.decoded(CursorPage<Post>.self) }
        }
    }

    @Test func invalidJSONIsWellFramedButUnparseable() async throws {
        try await withMockServer(MockServerConfiguration(faults: [FaultRule(failure: .invalidJSON)])) { _, client in
            let response = try await client.get("/feed")
            #expect(response.status == .ok)
            #expect(throws: (any Error).self) { try response.decoded(FeedPage.self) }
        }
    }

    @Test func closeMidBodyDropsTheConnectionAndTheServerKeepsServing() async throws {
        try await withMockServer(MockServerConfiguration(faults: [FaultRule(route: "/exercises", failure: .close)])) { server, client in
            await #expect(throws: (any Error).self) { try await client.get("/exercises") }
            let status = try await withClient(of: server) { fresh in try await fresh.get("/posts").status }
            #expect(status == .ok)
        }
    }

    @Test func latencyIsAppliedAndJournaled() async throws {
        let rule = FaultRule(route: "/feed", latencyMilliseconds: 20, jitterMilliseconds: 10)
        try await withMockServer(MockServerConfiguration(faults: [rule])) { _, client in
            let clock = ContinuousClock()
            let started = clock.now
            #expect(try await client.get("/feed").status == .ok)
            #expect(clock.now - started >= .milliseconds(20))
            let entry = try #require(try await client.get("/_admin/journal?limit=2").decoded([JournalEntry].self).first)
            #expect(entry.fault?.hasPrefix("latency ") == true)
        }
    }

    @Test func faultsCanBeReplacedAndClearedAtRunTime() async throws {
        try await withMockServer { _, client in
            let set = try await client.send(
                .put, "/_admin/faults", json: #"{"rules":[{"route":"/feed","failure":"status","status":502}]}"#
            )
            #expect(set.status == .ok)
            #expect(try await client.get("/feed").status == .badGateway)
            #expect(try await client.get("/posts").status == .ok)
            #expect(try await client.send(.delete, "/_admin/faults").status == .ok)
            #expect(try await client.get("/feed").status == .ok)
        }
    }

    @Test(arguments: [
        #"{"rules":[{"route":"/nope"}]}"#, #"{"rules":[{"status":200}]}"#, #"{"rules":[{"rate":2}]}"#,
        #"{"rules":[{"failure":"explode"}]}"#, #"{"rules":[{"route":"/_admin/stats"}]}"#,
    ])
    func invalidFaultSettingsGetA400(body: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.put, "/_admin/faults", json: body)
            #expect(response.status == .badRequest)
        }
    }

    @Test func aFaultOnARouteTheServerDoesNotHaveStopsTheStart() async throws {
        await #expect(throws: MockServerError.self) {
            let server = try await RunningMockServer.start(MockServerConfiguration(faults: [FaultRule(route: "/missing")]))
            await server.stop()
        }
    }

    @Test func faultsReachStyledAndStringKeyedRoutes() async throws {
        let rule = FaultRule(route: "/styles/has-more/users", failure: .status, status: 502)
        try await withMockServer(MockServerConfiguration(faults: [rule])) { _, client in
            let faulted = try await client.get("/styles/has-more/users")
            #expect(faulted.status == .badGateway)
            #expect(try await client.get("/styles/has-more/posts").status == .ok)
        }
    }

    @Test func specStringsParseIntoRules() throws {
        let rule = try FaultRule(spec: "route=/posts/{id},latency=100,jitter=50,status=429,rate=0.25,first=3,retry-after=2")
        #expect(rule == FaultRule(route: "/posts/{id}", latencyMilliseconds: 100, jitterMilliseconds: 50, failure: .status,
                                  status: 429, rate: 0.25, first: 3, retryAfter: 2))
        #expect(try FaultRule(spec: "failure=close").failure == .close)
        #expect(throws: SpecError.self) { try FaultRule(spec: "route=posts") }
        #expect(throws: SpecError.self) { try FaultRule(spec: "latency=fast") }
        #expect(throws: SpecError.self) { try FaultRule(spec: "colour=red") }
    }
}
