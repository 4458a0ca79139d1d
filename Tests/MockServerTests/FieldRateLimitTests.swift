import Foundation
import HTTPFields
import HTTPTypes
import Testing
@testable import MockServer

@Suite("The field's rate limits: 403s, IETF fields, secondary limits")
struct FieldRateLimitTests {
    @Test func aSpentLimitCanBeA403AsGitHubAnswersIt() async throws {
        let configuration = MockServerConfiguration(rateLimit: RateLimit(requests: 1, window: .seconds(3600)), rateLimitStatus: 403)
        try await withMockServer(configuration) { _, client in
            #expect(try await client.get("/posts").status == .ok)
            let refused = try await client.get("/posts")
            #expect(refused.status == .forbidden && refused.errorCode == "rate_limited")
            #expect(refused.headers[.xRateLimitRemaining] == "0" && refused.headers[.retryAfter] != nil)
        }
    }

    @Test func theIETFFieldsStateTheQuotaAndWhatIsLeft() async throws {
        let configuration = MockServerConfiguration(rateLimit: RateLimit(requests: 3, window: .seconds(60)), rateLimitFields: [.ietf])
        try await withMockServer(configuration) { _, client in
            let first = try await client.get("/posts")
            #expect(first.headers[.rateLimitPolicy] == "\"default\";q=3;w=60")
            #expect(first.headers[.rateLimit]?.hasPrefix("\"default\";r=2;t=") == true)
            #expect(first.headers[.xRateLimitLimit] == nil)
            _ = try await client.get("/posts")
            _ = try await client.get("/posts")
            let refused = try await client.get("/posts")
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == nil)
            #expect(refused.headers[.rateLimit]?.hasPrefix("\"default\";r=0;t=") == true)
        }
    }

    @Test(arguments: [("x-ratelimit,ietf", RateLimitFields([.xRateLimit, .ietf])), ("none", RateLimitFields()),
                      ("retry-after", RateLimitFields.retryAfter)])
    func fieldListsParse(spec: String, fields: RateLimitFields) throws {
        #expect(try RateLimitFields(spec: spec) == fields)
    }

    @Test func aSecondaryLimitIsA403ThatStatesNothing() async throws {
        let configuration = MockServerConfiguration(
            rateLimit: RateLimit(requests: 100, window: .seconds(60)), secondaryLimit: .rate(RateLimit(requests: 2, window: .seconds(3600))))
        try await withMockServer(configuration) { _, client in
            #expect(try await client.get("/posts").status == .ok)
            #expect(try await client.get("/posts").status == .ok)
            let refused = try await client.get("/posts")
            #expect(refused.status == .forbidden && refused.errorCode == "secondary_rate_limited")
            #expect(refused.errorMessage?.contains("secondary rate limit") == true)
            #expect(refused.headers[.retryAfter] == nil && refused.headers[.xRateLimitRemaining] == nil)
        }
    }

    @Test func aConcurrentSecondaryLimitRefusesTheSecondRequestInFlightAndTheStatsCountThem() async throws {
        let configuration = MockServerConfiguration(
            faults: [FaultRule(route: "/feed", latencyMilliseconds: 5_000)], secondaryLimit: .concurrent(1))
        try await withMockServer(configuration) { server, client in
            let slow = Task { try await withClient(of: server) { try await $0.get("/feed").status } }
            // The slow request is in flight once the server says so (no sleep: the stats tell).
            while try await client.get("/_admin/stats").decoded(MockServerStatistics.self).inFlight < 1 { await Task.yield() }
            let refused = try await client.get("/posts")
            #expect(refused.status == .forbidden && refused.errorCode == "secondary_rate_limited")
            #expect(try await slow.value == .ok)
            let stats = try await client.get("/_admin/stats").decoded(MockServerStatistics.self)
            #expect(stats.maxInFlight == 2)
        }
    }

    @Test(arguments: [("concurrent=2", SecondaryLimit.concurrent(2)), ("5/min", .rate(RateLimit(requests: 5, window: .seconds(60))))])
    func secondarySpecsParse(spec: String, limit: SecondaryLimit) throws {
        #expect(try SecondaryLimit(spec: spec) == limit)
    }
}
