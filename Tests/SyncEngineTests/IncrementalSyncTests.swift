import Foundation
import HTTPCache
import JSON
import MirrorStore
@testable import MockServer
import SyncEngine
import Synchronization
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

    /// A member no stored item has (misspelled, or not in this API) gives no value to start from:
    /// each run reads every page, and says why instead of doing so silently.
    @Test func aSinceMemberNoItemHasIsSaid() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 10))
        let fixture = try SyncFixture()
        let url = URL(string: server.baseURL + "/posts?limit=10")!
        var options = SyncOptions(url: url)
        options.since = try #require(SinceSpec(parsing: "since=updatedAt"))
        _ = try await fixture.engine.run(options) { _ in }
        let notices = Mutex<[String]>([])
        let second = try await fixture.engine.run(options) { event in
            if case .notice(let text) = event { notices.withLock { $0.append(text) } }
        }
        #expect(second.incremental == nil && second.complete)
        #expect(notices.withLock { $0 } == ["no stored item has updatedAt (--since since=updatedAt): this run reads every page"])
        await server.stop()
    }

    /// An incremental run that stops after merging a page starts again, next time, from the value
    /// it started from: the item edited late that its first page merged must not move the start
    /// past the pages it never read (item 4 was lost that way, with exit 0).
    @Test func anIncrementalRunThatStoppedStartsAgainFromItsValue() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ items: [(Int, String)], next: String?) -> ScriptedOrigin.Reply {
            let listed = items.map { #"{"id": \#($0.0), "updated_at": "\#($0.1)"}"# }.joined(separator: ", ")
            return ScriptedOrigin.Reply(body: #"{"items": [\#(listed)], "next_cursor": \#(next.map { "\"\($0)\"" } ?? "null")}"#)
        }
        let full = ["/things?limit=2": page([(1, "2024-01-01"), (2, "2024-01-01")], next: "c3"),
                    "/things?limit=2&cursor=c3": page([(3, "2024-01-01")], next: nil)]
        try origin.serve(full)
        let url = origin.baseURL + "/things?limit=2"
        let since = try #require(SinceSpec(parsing: "since=updated_at"))
        #expect(try await fixture.sync(url) { $0.since = since }.totalItems == 3)
        // Item 2 edited last, item 4 new; the run stops at its second page.
        let changed = ["/things?limit=2&since=2024-01-01": page([(2, "2024-01-09")], next: "c4"),
                       "/things?limit=2&since=2024-01-01&cursor=c4": page([(4, "2024-01-05")], next: nil),
                       "/things?limit=2&since=2024-01-09": page([(2, "2024-01-09")], next: nil)].merging(full) { $1 }
        try origin.serve(changed.merging(["/things?limit=2&since=2024-01-01&cursor=c4": ScriptedOrigin.Reply(status: 400, body: "{}")]) { $1 })
        await #expect(throws: SyncError.self) { try await fixture.sync(url) { $0.since = since } }
        #expect(try fixture.store.collection(named: "things")?.incrementalFrom == "2024-01-01")
        // A whole pass between (its pages may be fresh hits, which read nothing) keeps the start.
        _ = try await fixture.sync(url) { $0.since = since; $0.full = true }
        #expect(try fixture.store.collection(named: "things")?.incrementalFrom == "2024-01-01")
        try origin.serve(changed)
        let again = try await fixture.sync(url) { $0.since = since }
        #expect(again.incremental == "since=2024-01-01" && again.created == 1)
        #expect(try fixture.items("things").map(\.key) == [.integer(1), .integer(2), .integer(3), .integer(4)])
        #expect(try fixture.store.collection(named: "things")?.incrementalFrom == nil)
    }

    /// An incremental run whose listing's stated total falls while it reads (an entry deleted
    /// ahead of the pages still to read pulls others back past them) says the mirror may be
    /// partial (exit 9) and keeps its start, so the next run reads those entries.
    @Test func anIncrementalRunWhoseTotalFellKeepsItsStart() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ offset: Int, _ items: [(Int, String)], total: Int) -> ScriptedOrigin.Reply {
            let listed = items.map { #"{"id": \#($0.0), "updated_at": "\#($0.1)"}"# }.joined(separator: ", ")
            return ScriptedOrigin.Reply(body: #"{"offset": \#(offset), "limit": 2, "total": \#(total), "items": [\#(listed)]}"#)
        }
        let old = "2024-01-01"
        try origin.serve(["/things?limit=2": page(0, [(1, old), (2, old)], total: 4),
                          "/things?limit=2&offset=2": page(2, [(3, old), (4, old)], total: 4)])
        let url = origin.baseURL + "/things?limit=2"
        let since = try #require(SinceSpec(parsing: "since=updated_at"))
        _ = try await fixture.sync(url) { $0.since = since }
        // Items 1 to 3 edited; item 1 deleted once the first page was read: item 3 slides onto it.
        try origin.serve(["/things?limit=2&since=2024-01-01": page(0, [(1, "2024-02-01"), (2, "2024-02-01")], total: 3),
                          "/things?limit=2&since=2024-01-01&offset=2": page(2, [(4, old)], total: 3 - 1)])
        let fell = try await fixture.sync(url) { $0.since = since }
        #expect(fell.partial.contains { $0.contains("fell from 3 to 2") })
        #expect(try fixture.store.collection(named: "things")?.incrementalFrom == old)
    }

    /// A whole pass whose stated total fell may have missed items ("the next sync reads them"):
    /// the next sync is a whole pass again, not an incremental run from the newest stored value.
    @Test func aPartialWholePassIsFollowedByAWholePass() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ offset: Int, _ ids: [Int], total: Int) -> ScriptedOrigin.Reply {
            let listed = ids.map { #"{"id": \#($0), "updated_at": "2024-01-0\#($0)"}"# }.joined(separator: ", ")
            return ScriptedOrigin.Reply(body: #"{"offset": \#(offset), "limit": 2, "total": \#(total), "items": [\#(listed)]}"#)
        }
        // Item 1 deleted once the first page was read: item 3 slides onto it, unseen.
        try origin.serve(["/things?limit=2": page(0, [1, 2], total: 4), "/things?limit=2&offset=2": page(2, [4], total: 3)])
        let url = origin.baseURL + "/things?limit=2"
        let since = try #require(SinceSpec(parsing: "since=updated_at"))
        let partial = try await fixture.sync(url) { $0.since = since }
        #expect(partial.partial.contains { $0.contains("fell from 4 to 3") })
        try origin.serve(["/things?limit=2": page(0, [2, 3], total: 3), "/things?limit=2&offset=2": page(2, [4], total: 3)])
        let next = try await fixture.sync(url) { $0.since = since }
        #expect(next.incremental == nil)
        #expect(try fixture.items("things").map(\.key).contains(.integer(3)))
    }
}
