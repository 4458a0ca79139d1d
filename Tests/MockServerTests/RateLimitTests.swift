import Foundation
import HTTPFields
import HTTPTypes
import Testing

@testable import MockServer

@Suite("--rate-limit")
struct RateLimitTests {
    @Test(arguments: [
        ("10/min", 10, Duration.seconds(60)), ("5/2s", 5, .seconds(2)), ("100/1h", 100, .seconds(3600)),
        ("3/500ms", 3, .milliseconds(500)), ("1/s", 1, .seconds(1)), ("7/10m", 7, .seconds(600)),
    ])
    func specsParse(spec: String, requests: Int, window: Duration) throws {
        #expect(try RateLimit(spec: spec) == RateLimit(requests: requests, window: window))
    }

    @Test(arguments: ["0/min", "10", "10/fortnight", "x/min", "10/0s", "-1/s", "10/"])
    func badSpecsAreRejected(spec: String) {
        #expect(throws: SpecError.self) { try RateLimit(spec: spec) }
    }

    @Test func theWindowSlidesAndRetryAfterIsTheWaitForTheOldestRequest() {
        var window = SlidingWindow(limit: RateLimit(requests: 2, window: .seconds(10)))
        let start = ContinuousClock.now
        #expect(window.admit(at: start) == .admitted(remaining: 1, resetIn: .seconds(10)))
        #expect(window.admit(at: start + .seconds(1)) == .admitted(remaining: 0, resetIn: .seconds(9)))
        #expect(window.admit(at: start + .seconds(4)) == .refused(retryAfter: .seconds(6)))
        // Refused requests do not count: at 10 s the first slot is free again, exactly.
        #expect(window.admit(at: start + .seconds(10)) == .admitted(remaining: 0, resetIn: .seconds(1)))
        #expect(window.admit(at: start + .milliseconds(10_500)) == .refused(retryAfter: .milliseconds(500)))
        #expect(window.admit(at: start + .seconds(11)) == .admitted(remaining: 0, resetIn: .seconds(9)))
        window.clear()
        #expect(window.admit(at: start + .seconds(12)) == .admitted(remaining: 1, resetIn: .seconds(10)))
    }

    @Test func retryAfterRoundsUpInSecondsOrAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777.25)
        #expect(RetryAfterFormat.seconds.value(after: .milliseconds(1_200), from: now) == "2")
        #expect(RetryAfterFormat.httpDate.value(after: .seconds(3), from: now) == "Sun, 06 Nov 1994 08:49:41 GMT")
    }

    @Test func requestsBeyondTheLimitGet429WithRetryAfterAndTheAdminRoutesAreNotCounted() async throws {
        let limit = RateLimit(requests: 2, window: .seconds(3600))
        try await withMockServer(MockServerConfiguration(rateLimit: limit)) { _, client in
            let start = ContinuousClock.now
            let first = try await client.get("/posts")
            #expect(first.headers[.xRateLimitLimit] == "2" && first.headers[.xRateLimitRemaining] == "1")
            #expect(try await client.get("/styles/has-more/users").headers[.xRateLimitRemaining] == "0")
            #expect(try await client.get("/_admin/stats").status == .ok)
            let refused = try await client.get("/posts/1")
            #expect(refused.status == .tooManyRequests && refused.errorCode == "rate_limited")
            let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            // The wait is the window minus the time since the first request, however slow the machine.
            let elapsed = start.duration(to: .now).components.seconds
            #expect((3599 - Int(elapsed)...3600).contains(retryAfter))
            #expect(refused.headers[.xRateLimitRemaining] == "0" && refused.headers[.cacheControl] == "no-store")
            #expect(try await client.send(.post, "/_admin/reset").status == .ok)
            #expect(try await client.get("/posts/1").status == .ok)
        }
    }

    @Test func retryAfterCanBeAnHTTPDate() async throws {
        let configuration = MockServerConfiguration(
            faults: [FaultRule(route: "/feed", failure: .status, status: 503, retryAfter: 30)],
            rateLimit: RateLimit(requests: 1, window: .seconds(3600)), retryAfterFormat: .httpDate)
        try await withMockServer(configuration) { _, client in
            // HTTP dates have whole seconds: each date lies between the whole seconds around its request.
            func secondsAround(_ request: () async throws -> MockClient.Response) async rethrows -> (MockClient.Response, ClosedRange<Double>) {
                let before = Date().timeIntervalSince1970.rounded(.down)
                let response = try await request()
                return (response, before...Date().timeIntervalSince1970.rounded(.up))
            }
            let (faulted, faultTime) = try await secondsAround { try await client.get("/feed") }
            let faultDate = try #require(faulted.headers[.retryAfter].flatMap(HTTPDate.parse))
            #expect(faulted.status == .serviceUnavailable)
            #expect((faultTime.lowerBound + 30...faultTime.upperBound + 30).contains(faultDate.timeIntervalSince1970))
            let (refused, refusalTime) = try await secondsAround { try await client.get("/feed") }
            let limitDate = try #require(refused.headers[.retryAfter].flatMap(HTTPDate.parse))
            #expect(refused.status == .tooManyRequests)
            // The limit's slot frees an hour after the first request, the one the window counted.
            #expect((faultTime.lowerBound + 3599...refusalTime.upperBound + 3600).contains(limitDate.timeIntervalSince1970))
        }
    }
}
