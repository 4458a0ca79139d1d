import Foundation
import JSON
import MirrorStore
import Pagination
@testable import MockServer
import SyncEngine
import Testing

/// A newest-first listing that gains entries while a sync reads it (fresh-mock's `/news` with
/// `--news-arrivals`): every entry it listed is mirrored, once, and the sync succeeds.
@Suite("Listings that move while they are read")
struct MovingListingSyncTests {
    /// 50 entries; 2 more before each of the first 3 requests: 56 in the end.
    private func movingNews() async throws -> RunningMockServer {
        try await RunningMockServer.start(MockServerConfiguration(
            newsCount: 50, newsArrivals: NewsArrivals(count: 2, pace: .perRequest, maximum: 6)))
    }

    @Test(arguments: ["/news?per_page=10", "/news?offset=0&limit=10"])
    func aNewestFirstListingThatMovesIsMirroredWholeWithoutDuplicates(path: String) async throws {
        let server = try await movingNews()
        let fixture = try SyncFixture()
        let summary = try await fixture.sync(server.baseURL + path)
        let keys = try fixture.items("news").map(\.key)
        #expect(keys == (1...56).reversed().map { JSON.ItemKey.integer($0) })
        #expect(summary.complete && summary.repeatedItems == 4 && summary.caughtUpPages == 3 && summary.caughtUpItems == 4)
        #expect(summary.line.contains("the listing moved: 4 items seen twice, 3 pages caught up (4 new)"))
        // Still the same mirror after a sync of the now quiet listing: nothing new, nothing lost.
        let again = try await fixture.sync(server.baseURL + path)
        #expect(try fixture.items("news").map(\.key) == keys && again.removed == 0 && again.repeatedItems == 0)
        await server.stop()
    }

    /// A listing that gains 3 entries before every request, 30 in all: the catch-up's own requests
    /// past its first page move it again, so it reads from the first page once more, until that
    /// brings nothing new. It ended when a later page did, and missed what came meanwhile.
    @Test(arguments: ["/news?per_page=10", "/news?offset=0&limit=10"])
    func aCatchUpStartsAgainWhileTheListingMovesUnderIt(path: String) async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            newsCount: 50, newsArrivals: NewsArrivals(count: 3, pace: .perRequest, maximum: 30)))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync(server.baseURL + path)
        #expect(try fixture.items("news").map(\.key) == (1...80).reversed().map { JSON.ItemKey.integer($0) })
        #expect(summary.complete && summary.caughtUpPages < 10, "under the catch-up's limit of 10 pages")
        await server.stop()
    }

    /// A listing that gains 4 entries before every request, 200 in all, outruns the catch-up's 10
    /// pages: the sync says it is still moving, and that the mirror may be partial (exit 9).
    @Test func aListingStillMovingAfterTheCatchUpIsAPartialMirror() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            newsCount: 50, newsArrivals: NewsArrivals(count: 4, pace: .perRequest, maximum: 200)))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync(server.baseURL + "/news?per_page=10")
        #expect(summary.complete && summary.caughtUpPages <= 10)
        #expect(summary.partial == ["the listing was still moving after 10 pages of catching up: the next sync catches up the rest"])
        await server.stop()
    }

    /// A pass stopped after 3 pages (as by Ctrl-C) over a listing that gains 2 entries before each
    /// of the first 5 requests: the run that resumes it reads pages 4 to 6 while entries move from
    /// page 3 onto page 4. The revisit reads every page again, not only the first three, so an
    /// entry that moved past the stop is listed by a page of the pass and kept.
    @Test func aResumedPassOverAListingThatMovedKeepsEveryEntry() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            newsCount: 50, newsArrivals: NewsArrivals(count: 2, pace: .perRequest, maximum: 10)))
        let fixture = try SyncFixture()
        let url = server.baseURL + "/news?per_page=10"
        let stopped = try await fixture.sync(url) { $0.maximumPages = 3 }
        #expect(!stopped.complete && stopped.pages == 3)
        let resumed = try await fixture.sync(url)
        #expect(try fixture.items("news").map(\.key) == (1...60).reversed().map { JSON.ItemKey.integer($0) })
        #expect(resumed.complete && resumed.removed == 0 && resumed.resumedAtPage == 4 && resumed.revisitedPages == 6)
        await server.stop()
    }

    /// A second sync of an offset listing that gains an entry before every request: the pages the
    /// last pass chained are not asked several at once. Answered out of order while the listing
    /// moved, an entry pushed from a page answered late onto one answered early was read on
    /// neither, and the end of the pass removed it while the server still listed it.
    /// The first URL of `/news?per_page=7` names no page; the next ones do (`page=2`…).
    @Test(arguments: ["/news?offset=0&limit=7", "/news?per_page=7"])
    func aResyncOfAMovingPositionalListingRemovesNothingTheServerLists(path: String) async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            newsCount: 45, newsArrivals: NewsArrivals(count: 1, pace: .perRequest, maximum: 40), maxAge: 0))
        let fixture = try SyncFixture()
        let url = server.baseURL + path
        _ = try await fixture.sync(url)
        let first = Set(try fixture.items("news").map(\.key))
        let again = try await fixture.sync(url)
        let kept = Set(try fixture.items("news").map(\.key))
        #expect(again.complete && again.removed == 0 && first.isSubset(of: kept), "lost: \(first.subtracting(kept).sorted { "\($0)" < "\($1)" })")
        await server.stop()
    }

    /// `--paginate page` on a listing that ignores `page=`: each page lists the first page's items
    /// again. Repeats are allowed in pages named by position, but five pages of nothing else stop
    /// the sync (exit 5) where it used to read and write pages until it was killed.
    @Test func pagesThatListNothingNewStopTheSync() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        let fixture = try SyncFixture()
        await #expect(throws: SyncError.repeatingPages(url: server.baseURL + "/posts?page=6", count: 5)) {
            try await fixture.sync(server.baseURL + "/posts") { $0.overrides.paginate = try? PaginateSpec(parsing: "page") }
        }
        #expect(try fixture.items("posts").count == 20)
        await server.stop()
    }

    @Test func aKeyRepeatedInACursorListingIsStillAnError() async throws {
        // A cursor names what comes after a key: a key that comes again is no listing moving.
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        try origin.serve(["/things": EarlyEndTests.cursorPage(1...2, next: "2"), "/things?cursor=2": EarlyEndTests.cursorPage(2...3, next: nil)])
        await #expect {
            try await fixture.sync(origin.baseURL + "/things")
        } throws: { error in
            if case SyncError.duplicateKey(_, "2", 1, 0) = error { return true }
            return false
        }
    }
}
