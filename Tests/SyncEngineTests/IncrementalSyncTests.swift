import Foundation
import HTTPCache
import JSON
import MirrorStore
@testable import MockServer
import SyncEngine
import Testing

/// `--since PARAM=MEMBER`: after a first whole pass, a sync asks for what changed since the
/// largest stored value and merges it; `--full` reads everything and removes what is gone.
@Suite("Incremental syncs")
struct IncrementalSyncTests {
    @Test func aSyncWithSinceMergesWhatChangedAndRemovesNothingUntilAFullPass() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30))
        let fixture = try SyncFixture()
        let url = server.baseURL + "/posts?limit=10"
        let since = try #require(SinceSpec(parsing: "since=updated_at"))
        let first = try await fixture.sync(url) { $0.since = since }
        #expect(first.incremental == nil && first.totalItems == 30)
        let newest = try #require(try fixture.items("posts").compactMap { try JSONDocument(Data($0.json.utf8)).value(at: JSONPath(["updated_at"]))?.string }.max())
        // Edits, new posts and deletions, all stamped now.
        let answer = try await fixture.services.client.send(TransportRequest(method: .post, url: URL(string: server.baseURL + "/_admin/tick?n=12")!))
        let tick = try JSONDecoder().decode(TickSummary.self, from: answer.body)
        let created = tick.created.filter { !tick.deleted.contains($0) }
        let deleted = tick.deleted.filter { !tick.created.contains($0) }
        #expect(!created.isEmpty && !deleted.isEmpty)
        let second = try await fixture.sync(url) { $0.since = since }
        #expect(second.incremental == "since=\(newest)")
        #expect(second.created == created.count && second.removed == 0 && second.line.contains("nothing removed"))
        // A deleted post stays until a whole pass.
        #expect(try fixture.items("posts").count == 30 + created.count)
        let record = try #require(try fixture.store.collection(named: "posts"))
        #expect(record.lastPassKind == .incremental && record.since == "since=updated_at")
        let full = try await fixture.sync(url) { $0.since = since; $0.full = true }
        #expect(full.incremental == nil && full.removed == deleted.count)
        #expect(try fixture.store.collection(named: "posts")?.lastPassKind == .full)
        await server.stop()
    }
}
