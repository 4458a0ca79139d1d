import Foundation
import JSON
import Pagination
import SyncEngine
import Synchronization
import Testing

@Suite("A JSON:API server (djangorestframework-jsonapi)")
struct JSONAPIOriginTests {
    @Test func a406ToTheJSONAcceptIsAskedAgainWithAnythingAndEveryPageFollows() async throws {
        let origin = try PeerOrigin.jsonAPI(items: 120)
        let fixture = try SyncFixture()
        let notices = NoticeLog()
        let options = SyncOptions(url: URL(string: "\(origin.baseURL)/api/posts")!)
        let summary = try await fixture.engine.run(options, events: notices.record)
        #expect(summary.complete && summary.totalItems == 120 && summary.pages == 6)
        // One 406, then */* for every page: no page asked twice.
        #expect(summary.requests == summary.pages + 1)
        #expect(notices.lines.filter { $0.contains("406") }.count == 1)
        let plan = try #require(try fixture.store.collection(named: "posts")?.plan)
        #expect(plan.items == JSONPath(["data"]) && plan.style == .nextURL(path: JSONPath(["links", "next"])))
    }
}
