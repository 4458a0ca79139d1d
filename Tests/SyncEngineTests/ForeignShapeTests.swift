import Foundation
import JSON
import Pagination
import SyncEngine
import Synchronization
import Testing

/// Shapes real APIs answer with, from a server this project did not write (Tools/peers/search_api.py):
/// search hits paged by `search_after`, keysets, NDJSON, scalars, one object, a total stated
/// larger than what could be mirrored.
@Suite("Shapes from outside: search_after, keysets, NDJSON, scalars, one object")
struct ForeignShapeTests {
    @Test func searchHitsArePagedBySearchAfterAndMatchTheirTotal() async throws {
        let origin = try PeerOrigin.search(items: 95)
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(origin.baseURL)/search?size=10")
        #expect(summary.complete && summary.totalItems == 95 && summary.pages == 10 && summary.partial.isEmpty)
        let plan = try #require(try fixture.store.collection(named: "search")?.plan)
        #expect(plan.style == .after(parameter: "search_after", member: JSONPath(["sort"])) && plan.items == JSONPath(["hits", "hits"]))
    }

    @Test func aTotalLargerThanWhatWasStoredIsSaid() async throws {
        let origin = try PeerOrigin.search(items: 95)
        let fixture = try SyncFixture()
        // Read as one document: the first page only, while the total says 95.
        let summary = try await fixture.sync("\(origin.baseURL)/search-capped?size=20") {
            $0.overrides.paginate = try? PaginateSpec(parsing: "single")
        }
        #expect(summary.complete && summary.totalItems == 20)
        #expect(summary.partial == [PartialMirror.missingItems(statedTotal: 95, stored: 20)!])
    }

    /// `--items` naming a member the pages lack: read as holding no items, said as a partial mirror.
    @Test func anItemsMemberThePagesLackIsSaidNotFatal() async throws {
        let origin = try PeerOrigin.search(items: 30)
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(origin.baseURL)/search?size=10") { $0.overrides.items = JSONPath(["hits", "docs"]) }
        #expect(summary.complete && summary.totalItems == 0)
        #expect(summary.partial.contains(PartialMirror.absentItems(JSONPath(["hits", "docs"]))))
        #expect(summary.partial.contains { $0.contains("states 30 items, 0 are stored") })
    }

    @Test func aKeysetIsPagedAfterTheLastKeyWithItsTokenInTheEnvironment() async throws {
        let origin = try PeerOrigin.search(items: 95)
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(origin.baseURL)/private/items?limit=20") {
            $0.overrides.paginate = try? PaginateSpec(parsing: "after:param=after")
            $0.headerFields[.authorization] = "Bearer letmein"
        }
        #expect(summary.complete && summary.totalItems == 95 && summary.pages == 5)
        await #expect(throws: SyncError.self) { _ = try await SyncFixture().sync("\(origin.baseURL)/private/items?limit=20") }
    }

    @Test func ndjsonScalarsAndOneObjectAreMirrored() async throws {
        let origin = try PeerOrigin.search(items: 30)
        let fixture = try SyncFixture()
        #expect(try await fixture.sync("\(origin.baseURL)/ndjson/items").totalItems == 30)
        let scalars = try await fixture.sync("\(origin.baseURL)/scalars")
        #expect(scalars.totalItems == 12 && scalars.keyedByContent && scalars.line.contains("keyed by content hash"))
        #expect(try fixture.items("scalars").first?.json == #""alpha""#)
        let object = try await fixture.sync("\(origin.baseURL)/object")
        #expect(object.totalItems == 1)
        #expect(try fixture.items("object").first?.json.hasPrefix(#"{"name":"settings""#) == true)
    }
}

/// The notices a sync said.
final class NoticeLog: Sendable {
    private let said = Mutex<[String]>([])
    var lines: [String] { said.withLock { $0 } }

    func record(_ event: SyncEvent) {
        if case .notice(let line) = event { said.withLock { $0.append(line) } }
    }
}
