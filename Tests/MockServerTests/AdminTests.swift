import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("/_admin journal, reset and tick")
struct AdminTests {
    @Test func journalRecordsMethodURLConditionalHeadersAndStatus() async throws {
        try await withMockServer { _, client in
            _ = try await client.get("/posts?limit=3", headers: [.ifNoneMatch: "\"abc\""])
            _ = try await client.send(.delete, "/posts/999")
            let entries = try await client.get("/_admin/journal?limit=2").decoded([JournalEntry].self)
            #expect(entries.count == 2)
            #expect(entries[0].method == "GET" && entries[0].url == "/posts?limit=3" && entries[0].status == 200)
            #expect(entries[0].conditionalHeaders == ["if-none-match": "\"abc\""])
            #expect(entries[1].method == "DELETE" && entries[1].status == 404)
            #expect(entries[1].sequence == entries[0].sequence + 1)
        }
    }

    /// `PUT /_admin/faults` accepts what its document allows and refuses the rest, naming the field.
    @Test(arguments: [
        (#"{"rules": [{"route": "/posts", "status": 503.0, "latency_ms": 1e1}]}"#, nil),
        // A misspelt member is refused, not dropped (the rule would do less than it asked).
        (#"{"rules": [{"route": "/posts", "latency": 50}]}"#, "field 'rules.0.latency': is not a member of this object (it takes after, failure, first, jitter_ms, latency_ms,"),
        (#"{"rules": [], "é 한": true}"#, "field 'é 한': is not a member of this object (it takes rules, seed)"),
        (#"{"rules": [], "seed": null}"#, "field 'seed': must be a whole number"),
        (#"{"rules": [{"status": null}]}"#, "field 'rules.0.status'"),
        (#"{"rules": [{"latency_ms": 12.5}]}"#, "field 'rules.0.latency_ms': must be a whole number, not 12.5"),
        (#"{"rules": [{"retry_after": 320829661239537106944}]}"#, "field 'rules.0.retry_after': must be 0…86400 seconds"),
    ] as [(String, String?)])
    func faultSettingsAreReadAsTheirDocumentSays(body: String, refusal: String?) async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.put, "/_admin/faults", json: body)
            if let refusal {
                #expect(response.status == .badRequest && response.errorMessage?.hasPrefix(refusal) == true, "\(response.text)")
            } else {
                #expect(response.status == .ok, "\(response.text)")
                #expect(response.text.contains(#""latency_ms":10"#) && response.text.contains(#""status":503"#))
            }
        }
    }

    @Test func journalKeepsOnlyTheConfiguredNumberOfRequests() async throws {
        try await withMockServer(MockServerConfiguration(journalCapacity: 3)) { _, client in
            for _ in 0..<5 { _ = try await client.get("/feed") }
            let entries = try await client.get("/_admin/journal?limit=100").decoded([JournalEntry].self)
            #expect(entries.map(\.sequence) == [3, 4, 5])
        }
    }

    @Test func tickIsSeededAndChangesPosts() async throws {
        let run: @Sendable () async throws -> (String, String) = {
            try await withMockServer(MockServerConfiguration(seed: 9, postCount: 40)) { _, client in
                let summary = try await client.send(.post, "/_admin/tick?n=20").text
                let posts = try await client.get("/posts?limit=100").decoded(CursorPage<Post>.self)
                return (summary, posts.data.map { "\($0.id):\($0.title)" }.joined(separator: "|"))
            }
        }
        let first = try await run()
        let second = try await run()
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.0.contains("edited") && first.0.contains("created") && first.0.contains("deleted"))
    }

    @Test func resetRestoresSeededDataValidatorsAndClearsStats() async throws {
        try await withMockServer { _, client in
            let before = try await client.allPosts(limit: 25)
            _ = try await client.send(.post, "/_admin/tick?n=30")
            #expect(try await client.allPosts(limit: 25).etags != before.etags)
            #expect(try await client.send(.post, "/_admin/reset").status == .ok)
            let stats = try await client.get("/_admin/stats").decoded(MockServerStatistics.self)
            #expect(stats.totalRequests == 1)
            #expect(stats.byRoute.keys.sorted() == ["POST /_admin/reset"])
            let after = try await client.allPosts(limit: 25)
            #expect(after.etags == before.etags)
            #expect(after.posts == before.posts)
        }
    }

    @Test func tickRejectsBadStepCounts() async throws {
        try await withMockServer { _, client async throws in
            #expect(try await client.send(.post, "/_admin/tick?n=0").status == .badRequest)
            #expect(try await client.send(.post, "/_admin/tick?n=5000").status == .badRequest)
        }
    }
}
