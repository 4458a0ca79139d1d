import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("GET /_admin/stats")
struct StatisticsTests {
    @Test func countsRequestsStatusesRoutesConditionalsAndSavedBytes() async throws {
        try await withMockServer { _, client in
            let first = try await client.get("/posts")
            let etag = try #require(first.headers[.eTag])
            _ = try await client.get("/posts", headers: [.ifNoneMatch: etag])
            _ = try await client.get("/posts", headers: [.ifNoneMatch: etag])
            _ = try await client.get("/posts?limit=0")
            _ = try await client.get("/missing")
            let stats = try await client.get("/_admin/stats").decoded(MockServerStatistics.self)
            let size = try #require(first.body?.readableBytes)
            #expect(stats.totalRequests == 5)
            #expect(stats.byStatus == ["200": 1, "304": 2, "400": 1, "404": 1])
            #expect(stats.byRoute["GET /posts"]?.requests == 4)
            #expect(stats.byRoute["GET /posts"]?.byStatus["304"] == 2)
            #expect(stats.byRoute["GET (unmatched)"]?.requests == 1)
            #expect(stats.conditionalRequests == 2)
            #expect(stats.notModified == 2)
            #expect(stats.bytesSavedBy304 == 2 * size)
            #expect(stats.bodyBytesSent >= size)
        }
    }

    @Test func statsAreJSONWithSnakeCaseKeysAndNoStore() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/_admin/stats")
            #expect(response.headers[.cacheControl] == "no-store")
            for key in ["total_requests", "by_status", "by_route", "conditional_requests", "not_modified",
                        "body_bytes_sent", "bytes_saved_by_304", "in_flight", "max_in_flight"] {
                #expect(response.text.contains("\"\(key)\""))
            }
        }
    }
}
