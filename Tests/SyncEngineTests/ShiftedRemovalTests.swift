import Foundation
import MirrorStore
import Pagination
import Storage
import SyncEngine
import Testing

/// A whole pass over a listing named by position (page numbers, offsets, links that carry them)
/// reads the listing again before it removes what no page listed: a deletion upstream while it
/// read pulls a live item back onto a page read already, where no page of the pass finds it.
@Suite("Removals in listings that shift")
struct ShiftedRemovalTests {
    typealias Reply = ScriptedOrigin.Reply

    /// A JSON array of `ids` as items; with `next`, a `Link` to that page number (no total stated).
    static func linkedPage(_ origin: ScriptedOrigin, _ ids: [Int], next: Int?) -> Reply {
        Reply(body: "[" + ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]",
              headers: next.map { ["Link": "<\(origin.baseURL)/things?page=\($0)>; rel=\"next\""] })
    }

    /// `{"data": [ids…], "next_cursor": next}`.
    static func cursorPage(_ ids: [Int], next: String?) -> Reply {
        let items = ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ")
        return Reply(body: #"{"data": [\#(items)], "next_cursor": \#(next.map { "\"\($0)\"" } ?? "null")}"#)
    }

    /// Serves `pages` as a `?page=N` listing linked by `Link`: page `i` of `later` answers with
    /// those lists of items from its second request on, the last repeated; with `totals`, each
    /// page states its own in `X-Total-Count`; with `validated`, each has an ETag (its items) and
    /// answers a request naming it with a 304.
    static func serveLinked(_ origin: ScriptedOrigin, _ pages: [[Int]], later: [Int: [[Int]]] = [:], totals: [Int]? = nil,
                            validated: Bool = false) throws {
        var replies: [String: Reply] = [:]
        for (index, ids) in pages.enumerated() {
            let next = index + 1 < pages.count ? index + 2 : nil
            var page = linkedPage(origin, ids, next: next)
            if let changed = later[index] { page.laterBodies = changed.map { linkedPage(origin, $0, next: next).body } }
            if let totals { page.headers = (page.headers ?? [:]).merging(["X-Total-Count": "\(totals[index])"]) { $1 } }
            if validated {
                page.etag = "\"" + ids.map(String.init).joined(separator: "-") + "\""
                page.revalidates = true
            }
            replies[index == 0 ? "/things" : "/things?page=\(index + 1)"] = page
        }
        try origin.serve(replies)
    }

    func keys(_ fixture: SyncFixture) throws -> [Int] {
        try fixture.items("things").map { Int($0.key.text)! }.sorted()
    }

    /// Item 1 is deleted upstream once the first page has been read: item 3 slides back onto the
    /// first page, and the second page no longer lists it. No total is stated, so nothing in the
    /// pass shows the shift; without a second look it removed item 3, which the server still
    /// lists, and kept item 1, which it no longer does (exit 0).
    @Test func anItemPulledBackOntoAPageReadAlreadyIsNotRemoved() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6]])
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[1, 2], [4, 5], [6]], later: [0: [[2, 3]]])
        let shifted = try await fixture.sync(url)
        #expect(try keys(fixture) == [2, 3, 4, 5, 6])
        #expect(shifted.complete && shifted.removed == 1 && shifted.created == 0 && shifted.partial.isEmpty)
        // The first look found page 1 changed; the second, every page as the first left it.
        #expect(shifted.revisitedPages == 6)
        #expect(shifted.line.contains("; 6 pages read again to confirm what no page listed"))
    }

    /// An item deleted before the sync: the pages after it come back changed, the pass finds it
    /// on none, and the second look (every page a 304, unchanged since the pass read it) confirms it.
    @Test func aDeletionIsConfirmedByConditionalRequests() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6]], validated: true)
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[2, 3], [4, 5], [6]], validated: true)
        let summary = try await fixture.sync(url)
        #expect(try keys(fixture) == [2, 3, 4, 5, 6])
        #expect(summary.removed == 1 && summary.revisitedPages == 3)
        #expect(summary.fullResponses == 3 && summary.notModified == 3, "\(summary.line)")
        // Every request that went out is counted, pages asked ahead of the change included.
        #expect(try await origin.received(through: fixture.services.client).count == 3 + summary.requests)
        // Nothing to remove: one look is enough.
        let again = try await fixture.sync(url)
        #expect(again.removed == 0 && again.revisitedPages == 0 && again.requests == 3, "\(again.line)")
    }

    /// The same slide in the part of a pass a later run resumed: item 3 is deleted once page 2
    /// has been read, item 5 slides onto it. The resumed pass's revisit, which stops where the
    /// run resumed, never read page 2 again; now, with something to remove, it reads every page.
    @Test func anItemPulledBackInTheResumedPartOfAPassIsNotRemoved() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6], [7, 8]])
        _ = try await fixture.sync(url)
        _ = try await fixture.sync(url) { $0.maximumPages = 1 }
        try Self.serveLinked(origin, [[1, 2], [3, 4], [6, 7], [8]], later: [1: [[4, 5]]])
        let resumed = try await fixture.sync(url)
        #expect(resumed.resumedAtPage == 2 && resumed.complete && resumed.removed == 1)
        #expect(try keys(fixture) == [1, 2, 4, 5, 6, 7, 8])
    }

    /// A reader's refresh reads the pages on screen before the walk: a change among them counts
    /// too. Item 1 is deleted once the first page has been read, item 3 slides onto it.
    @Test func anItemPulledBackOntoAPageTheRefreshReadFirstIsNotRemoved() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4]])
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[1, 2], [4]], later: [0: [[2, 3]]])
        let refreshed = try await fixture.sync(url) { $0.firstPages = [0, 1] }
        #expect(refreshed.complete && refreshed.removed == 1)
        #expect(try keys(fixture) == [2, 3, 4])
    }

    /// Item 1 is deleted once the pass has read page 1, item 2 once the first look again has:
    /// item 3 slides past the pass, item 4 past that look. The second look finds page 1 changed
    /// again, the third finds every page still: items 1 and 2 are removed, 3 and 4 kept.
    @Test func aListingThatMovesDuringALookIsReadUntilItHoldsStill() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6], [7, 8]])
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[1, 2], [4, 5], [6, 7], [8]], later: [0: [[2, 3], [3, 4]], 1: [[5, 6]], 2: [[7, 8]], 3: [[]]])
        let moving = try await fixture.sync(url)
        #expect(moving.complete && moving.removed == 2 && moving.partial.isEmpty && moving.revisitedPages == 12)
        #expect(try keys(fixture) == [3, 4, 5, 6, 7, 8])
    }

    /// A listing that changes at every look: after ``SyncPass/maximumLooks`` nothing is removed,
    /// what no page listed stays aside, and the mirror may be partial (exit 9). The next sync,
    /// over a listing that holds still, settles it.
    @Test func aListingStillMovingAfterTheLooksRemovesNothing() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6]])
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[1, 2], [4, 5], [6]], later: [0: [[2, 3], [1, 2], [2, 3], [1, 2]]])
        let moving = try await fixture.sync(url)
        #expect(moving.complete && moving.removed == 0 && moving.partial == [PartialMirror.movedWhileReadAgain])
        #expect(try fixture.store.collection(named: "things")?.lastPassKind == .partial)
        try Self.serveLinked(origin, [[2, 3], [4, 5], [6]])
        let settled = try await fixture.sync(url)
        #expect(settled.created == 0 && settled.removed == 1 && settled.partial.isEmpty)
        #expect(try keys(fixture) == [2, 3, 4, 5, 6])
    }

    /// Item 1 was deleted before the sync, and item 4 is edited at every answer (or the page's
    /// bytes change as a timestamp would): the look finds the same item unlisted, so one look is
    /// enough, and the deletion is removed.
    @Test func editsDuringTheLookAreNoMove() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6]])
        _ = try await fixture.sync(url)
        var replies: [String: Reply] = [
            "/things": Self.linkedPage(origin, [2, 3], next: 2), "/things?page=3": Self.linkedPage(origin, [6], next: nil),
        ]
        var edited = Self.linkedPage(origin, [4, 5], next: 3)
        edited.laterBodies = (1...4).map { edited.body.replacingOccurrences(of: #"{"id": 4}"#, with: #"{"id": 4, "edit": \#($0)}"#) }
        replies["/things?page=2"] = edited
        try origin.serve(replies)
        let summary = try await fixture.sync(url)
        #expect(summary.removed == 1 && summary.revisitedPages == 3 && summary.partial.isEmpty)
        #expect(try keys(fixture) == [2, 3, 4, 5, 6])
    }

    /// Item 1 is deleted once page 1 has been read, and two items are added at the end: the total
    /// grew, so the pass removes nothing, and item 3 (slid onto page 1), set aside when page 2 was
    /// rewritten, is put back after the last page: it may be a live item. The mirror may be partial (exit 9),
    /// where the sync said nothing and exited 0 (and item 3 stayed hidden). The next sync settles it.
    @Test func aPassThatRemovesNothingKeepsWhatItSetAsideAndSaysSo() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4], [5, 6]], totals: [6, 6, 6])
        _ = try await fixture.sync(url)
        try Self.serveLinked(origin, [[1, 2], [4, 5], [6, 7], [8]], totals: [6, 7, 7, 7])
        let grew = try await fixture.sync(url)
        #expect(grew.complete && grew.removed == 0 && grew.partial == [PartialMirror.keptAside])
        #expect(try keys(fixture) == [1, 2, 3, 4, 5, 6, 7, 8])
        try Self.serveLinked(origin, [[2, 3], [4, 5], [6, 7], [8]], totals: [7, 7, 7, 7])
        let settled = try await fixture.sync(url)
        #expect(settled.removed == 1 && settled.partial.isEmpty)
        #expect(try keys(fixture) == [2, 3, 4, 5, 6, 7, 8])
    }

    /// A page that changed with nothing to remove (an item edited) is not read twice.
    @Test func anEditWithNothingToRemoveIsNotReadTwice() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try Self.serveLinked(origin, [[1, 2], [3, 4]])
        _ = try await fixture.sync(url)
        var edited = Self.linkedPage(origin, [3, 4], next: nil)
        edited.body = edited.body.replacingOccurrences(of: #"{"id": 4}"#, with: #"{"id": 4, "title": "edited"}"#)
        try origin.serve(["/things": Self.linkedPage(origin, [1, 2], next: 2), "/things?page=2": edited])
        let before = try await origin.received(through: fixture.services.client).count
        let summary = try await fixture.sync(url)
        #expect(summary.changed == 1 && summary.removed == 0 && summary.revisitedPages == 0)
        // No page asked twice but what was asked ahead of the change (counted among "more").
        let asked = try await origin.received(through: fixture.services.client).dropFirst(before).map(\.path)
        #expect(asked.count == summary.requests && Set(asked) == ["/things", "/things?page=2"] && summary.fullResponses == 2)
    }

    /// A cursor does not shift: what its pass found on no page is removed without a second look.
    @Test func aCursorListingRemovesWithoutASecondLook() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try origin.serve(["/things": Self.cursorPage([1, 2], next: "2"), "/things?cursor=2": Self.cursorPage([3, 4], next: nil)])
        _ = try await fixture.sync(url)
        try origin.serve(["/things": Self.cursorPage([2], next: "2"), "/things?cursor=2": Self.cursorPage([3, 4], next: nil)])
        let summary = try await fixture.sync(url)
        #expect(try keys(fixture) == [2, 3, 4])
        #expect(summary.removed == 1 && summary.revisitedPages == 0 && summary.requests == 2)
    }
}
