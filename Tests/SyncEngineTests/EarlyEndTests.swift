import Foundation
import Pagination
import Storage
import SyncEngine
import Synchronization
import Testing

/// Passes that stop, or that a server ends early: nothing stored may be lost.
@Suite("Passes that stop or end early")
struct EarlyEndTests {
    typealias Reply = ScriptedOrigin.Reply

    /// `{"data": [ids…], "next_cursor": next}` with the ids as items.
    static func cursorPage(_ ids: ClosedRange<Int>, next: String?) -> Reply {
        let items = ids.map { #"{"id": \#($0), "title": "t\#($0)"}"# }.joined(separator: ", ")
        return Reply(body: #"{"data": [\#(items)], "next_cursor": \#(next.map { "\"\($0)\"" } ?? "null")}"#)
    }

    /// A bare array of `{"id": n}` items, one for each of `ids`.
    static func arrayPage(_ ids: ClosedRange<Int>) -> Reply {
        Reply(body: "[" + ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]")
    }

    /// Items 1…6 in pages of two by number (`?per_page=2&page=N`), with no total and no link.
    static var threePagesOfTwo: [String: Reply] {
        ["/things?per_page=2": arrayPage(1...2), "/things?per_page=2&page=2": arrayPage(3...4), "/things?per_page=2&page=3": arrayPage(5...6)]
    }

    func keys(_ fixture: SyncFixture) throws -> [String] {
        try fixture.items("things").map(\.key.text).sorted { Int($0)! < Int($1)! }
    }

    /// A server that answered with HTTP and then sends something else: whether the page is
    /// stored (its revalidation fails) or not, that is the server's answer, not a network
    /// that failed, so it is not retried.
    @Test func aReplyThatIsNotHTTPIsNotRetried() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        var page = Self.cursorPage(1...2, next: nil)
        page.etag = #""v1""#
        try origin.serve(["/things": page])
        _ = try await fixture.sync(url)
        try origin.serve(["/things": Reply(raw: "hello, not HTTP at all\n")])
        await #expect {
            _ = try await fixture.sync(url)
        } throws: { error in
            guard case SyncError.badReply(_, let reason) = error else { return false }
            return reason.contains("HTTP/0.9")
        }
        #expect(fixture.waits.withLock { $0.isEmpty }, "no wait to retry")
        #expect(try keys(fixture) == ["1", "2"])
    }

    /// Pages by number that end at a 404: a 404 for a moment on a middle page is asked again
    /// before it ends the pass, so the pages after it are read, and nothing they hold is removed.
    @Test func aPassIsNotEndedByA404ThatDoesNotLast() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        var pages = Self.threePagesOfTwo
        try origin.serve(pages)
        let first = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        #expect(first.totalItems == 6 && first.pages == 3)
        (pages["/things?per_page=2&page=2"]!.throttled, pages["/things?per_page=2&page=2"]!.throttledStatus) = (1, 404)
        try origin.serve(pages)
        let again = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        #expect(again.complete && again.removed == 0 && again.pages == 3)
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
        // A 404 that lasts (asked twice) where the last pass read a page: the listing shrank or
        // the server is wrong for a while. The pass ends there but removes nothing; the next
        // sync, whose chain ends there, settles it.
        pages["/things?per_page=2&page=2"]!.throttled = 10  // 404s for the sync's two asks and any guess ahead
        try origin.serve(pages)
        let shrunk = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        #expect(shrunk.complete && shrunk.removed == 0 && shrunk.pages == 1)
        #expect(shrunk.endReason == "page 2 answered 404: past the last page; page 2 was there in the last pass, so nothing was removed")
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
    }

    /// An empty page before pages the last pass read items on ends the pass as a 404 there
    /// does: it removes nothing (a server's hiccup, or a listing cut short) and says the mirror
    /// may be partial (that page's items are kept, after the last page, until the next sync), which settles it.
    /// It removed every item of the pages after it, exit 0.
    @Test(arguments: [false, true])
    func anEmptyPageBeforePagesTheLastPassReadRemovesNothing(pageComesBack: Bool) async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let pages = Self.threePagesOfTwo
        try origin.serve(pages)
        _ = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        var emptied = pages
        emptied["/things?per_page=2&page=2"]!.body = "[]"
        try origin.serve(emptied)
        let hiccup = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        #expect(hiccup.removed == 0 && !hiccup.partial.isEmpty)
        #expect(hiccup.endReason?.hasSuffix("page 2 lists nothing, where the last pass read items on the pages after it, so nothing was removed")
                == true, "\(hiccup.endReason ?? "")")
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"], "items 3 and 4, set aside, are put back")
        try origin.serve(pageComesBack ? pages : emptied)
        let next = try await fixture.sync(origin.baseURL + "/things?per_page=2")
        #expect(next.partial.isEmpty)
        // Back: every item is listed again. Still empty: the listing was cut short there, and
        // what it no longer lists is removed.
        #expect(try keys(fixture) == (pageComesBack ? ["1", "2", "3", "4", "5", "6"] : ["1", "2"]))
    }

    /// A server that caps its pages below the size asked (2 sent for 4 asked, no total, no
    /// next link) sends a first page short of it: the walk asks the next page rather than take
    /// it for the last, and ends at the first page shorter than it. It stored 2 of 5, exit 0.
    @Test func aServerThatCapsItsPagesIsReadToTheEnd() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        try origin.serve(["/things?per_page=4": Self.arrayPage(1...2), "/things?per_page=4&page=2": Self.arrayPage(3...4),
                          "/things?per_page=4&page=3": Self.arrayPage(5...5)])
        let summary = try await fixture.sync(origin.baseURL + "/things?per_page=4")
        #expect(summary.complete && summary.pages == 3 && summary.partial.isEmpty)
        #expect(summary.endReason == "a short page (1 of 2 items)")
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5"])
    }

    /// A newest-first listing gains two items at its front, and the refresh fails at its third
    /// page. Items 4 and 3, pushed from page 2 towards page 3, were set aside when page 2 was
    /// rewritten, and stayed hidden (still in the file) until a pass completed: the reader said
    /// "offline, showing stored items" without them. They are shown after the last page read, and the next
    /// sync puts each where the server lists it, none of them counted as new.
    @Test func aRefreshThatStopsPartwayHidesNothingItHeld() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        try ShiftedRemovalTests.serveLinked(origin, [[6, 5], [4, 3], [2, 1]])
        _ = try await fixture.sync(url)
        try origin.serve(["/things": ShiftedRemovalTests.linkedPage(origin, [8, 7], next: 2),
                          "/things?page=2": ShiftedRemovalTests.linkedPage(origin, [6, 5], next: 3),
                          "/things?page=3": Reply(status: 500, body: "{}")])
        await #expect(throws: (any Error).self) { _ = try await fixture.sync(url) { $0.retry.retries = 0 } }
        #expect(try fixture.items("things").map(\.key.text) == ["8", "7", "6", "5", "4", "3", "2", "1"])
        try ShiftedRemovalTests.serveLinked(origin, [[8, 7], [6, 5], [4, 3], [2, 1]])
        let settled = try await fixture.sync(url)
        #expect(settled.created == 0 && settled.removed == 0 && settled.partial.isEmpty)
        #expect(try fixture.items("things").map(\.key.text) == ["8", "7", "6", "5", "4", "3", "2", "1"])
    }

    /// A growing newest-first feed whose refreshes keep failing further on: each run put back
    /// what its pages set aside and the next resumed a page or two before, until a run met five
    /// pages in a row of items the pass had listed (exit 5, "the server may ignore the page
    /// parameter"). A pass that put items back is started over: every run ends as far as the
    /// server lets it, nothing hidden, and the clean run after them is whole.
    @Test func refreshesOfAGrowingFeedThatKeepFailingDoNotEndInALoop() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        func serve(newest: Int, failingPage: Int?) throws {
            let ids = Array((1...newest).reversed())
            let pages = stride(from: 0, to: ids.count, by: 3).map { Array(ids[$0..<min($0 + 3, ids.count)]) }
            var replies: [String: Reply] = [:]
            for (index, page) in pages.enumerated() {
                let reply = index == failingPage ? Reply(status: 500, body: "{}")
                    : ShiftedRemovalTests.linkedPage(origin, page, next: index + 1 < pages.count ? index + 2 : nil)
                replies[index == 0 ? "/things" : "/things?page=\(index + 1)"] = reply
            }
            try origin.serve(replies)
        }
        try serve(newest: 60, failingPage: nil)
        _ = try await fixture.sync(url)
        for (run, failingPage) in [7, 11, 15, 19, 23].enumerated() {
            try serve(newest: 63 + 3 * run, failingPage: failingPage)
            await #expect {
                _ = try await fixture.sync(url) { $0.retry.retries = 0 }
            } throws: { error in
                "\(error)".hasSuffix("?page=\(failingPage + 1): status 500 after 1 attempt (--retries 0)")
            }
            #expect(try Set(keys(fixture)).isSuperset(of: (1...60).map(String.init)), "nothing the mirror held is hidden")
        }
        try serve(newest: 75, failingPage: nil)
        let clean = try await fixture.sync(url)
        #expect(clean.complete && clean.removed == 0)
        #expect(try fixture.items("things").map(\.key.text) == (1...75).reversed().map(String.init))
    }

    @Test func itemsMovedByAStoppedPassAreWrittenBackWhenTheirPageLooksUnchanged() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        let whole: [String: Reply] = ["/things": Self.cursorPage(1...2, next: "2"), "/things?cursor=2": Self.cursorPage(3...4, next: "4"),
                                      "/things?cursor=4": Self.cursorPage(5...6, next: nil)]
        try origin.serve(whole)
        _ = try await fixture.sync(url)
        // Item 1 deleted upstream: item 3 moves to the first page; the second page then fails.
        try origin.serve(["/things": Self.cursorPage(2...3, next: "2"), "/things?cursor=2": Reply(status: 500, body: "{}")])
        await #expect(throws: (any Error).self) { _ = try await fixture.sync(url) { $0.retry.retries = 0 } }
        // Item 1, set aside by the first page, was put back after it: every item is shown meanwhile.
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
        // Item 1 is back upstream. The stopped pass put an item back, so the next sync starts it
        // over. (It resumed at the second page, whose
        // body is the one its stored record describes though item 3 is no longer on it: written
        // again, it listed item 3 a second time in that pass, exit 5, and only the sync after
        // that started over.)
        try origin.serve(whole)
        let again = try await fixture.sync(url)
        #expect(again.complete && again.resumedAtPage == nil)
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
    }

    @Test func aSyncWhoseFirstPageFailedIsFollowedByAWholePassThatKeepsEveryItem() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        let url = origin.baseURL + "/things"
        let whole: [String: Reply] = ["/things": Self.cursorPage(1...2, next: "2"), "/things?cursor=2": Self.cursorPage(3...4, next: nil)]
        try origin.serve(whole)
        _ = try await fixture.sync(url)
        try origin.serve(["/things": Reply(status: 503, body: "{}")])
        await #expect(throws: (any Error).self) { _ = try await fixture.sync(url) { $0.retry.retries = 0 } }
        try origin.serve(whole)
        let again = try await fixture.sync(url)
        #expect(again.removed == 0 && again.resumedAtPage == nil)
        #expect(try keys(fixture) == ["1", "2", "3", "4"])
    }

    @Test func aMissingPageThatAStatedPageCountPromisesFailsTheSyncAndRemovesNothing() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ number: Int) -> Reply {
            let items = (number * 2 - 1...number * 2).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
            return Reply(body: #"{"page": \#(number), "total_pages": 3, "data": [\#(items)]}"#)
        }
        try origin.serve(["/things": page(1), "/things?page=2": page(2), "/things?page=3": page(3)])
        _ = try await fixture.sync(origin.baseURL + "/things")
        #expect(try keys(fixture).count == 6)
        try origin.serve(["/things": page(1), "/things?page=2": page(2)])
        await #expect(throws: (any Error).self) { _ = try await fixture.sync(origin.baseURL + "/things") }
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
        // The next sync resumes at the missing page: the promise of the page before it still holds.
        await #expect(throws: (any Error).self) { _ = try await fixture.sync(origin.baseURL + "/things") }
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5", "6"])
    }

    @Test func aServerThatCapsThePageSizeIsWalkedToItsStatedTotal() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ offset: Int) -> Reply {
            let items = (offset + 1...min(offset + 2, 5)).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
            return Reply(body: #"{"offset": \#(offset), "limit": 2, "total": 5, "items": [\#(items)]}"#)
        }
        try origin.serve(["/things?limit=10": page(0), "/things?limit=10&offset=2": page(2), "/things?limit=10&offset=4": page(4)])
        let summary = try await fixture.sync(origin.baseURL + "/things?limit=10")
        #expect(summary.complete)
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5"])
    }

    @Test func aTotalThatChangesDuringThePassRemovesNothing() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ offset: Int, _ ids: [Int], total: Int) -> Reply {
            let items = ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ")
            return Reply(body: #"{"offset": \#(offset), "limit": 2, "total": \#(total), "items": [\#(items)]}"#)
        }
        func serve(_ first: [Int], _ second: [Int], _ third: [Int], totals: (Int, Int)) throws {
            try origin.serve(["/things?limit=2": page(0, first, total: totals.0), "/things?limit=2&offset=2": page(2, second, total: totals.1),
                              "/things?limit=2&offset=4": page(4, third, total: totals.1)])
        }
        let url = origin.baseURL + "/things?limit=2"
        try serve([1, 2], [3, 4], [5, 6], totals: (6, 6))
        _ = try await fixture.sync(url)
        // Item 1 is deleted upstream after the first page was read: the later pages shift, and
        // item 3 (still there) is on no page this pass reads.
        try serve([1, 2], [4, 5], [6], totals: (6, 5))
        let notices = Mutex<[String]>([])
        let shifted = try await fixture.engine.run(SyncOptions(url: URL(string: url)!)) { event in
            if case .notice(let text) = event { notices.withLock { $0.append(text) } }
        }
        #expect(shifted.complete && shifted.removed == 0)
        #expect(notices.withLock { $0 } == ["the collection's stated total changed from 6 to 5 while the pass read it: nothing removed this time"])
        // Item 3 is on no page read: the mirror may be partial, and says why (not "states 6 items, 5 stored").
        #expect(shifted.partial == [PartialMirror.movedTotal("the collection's stated total fell from 6 to 5 while the pass read it")])
        // A pass over the settled collection lists item 3 again: kept, not created anew.
        try serve([2, 3], [4, 5], [6], totals: (5, 5))
        let settled = try await fixture.sync(url)
        #expect(settled.created == 0 && settled.removed == 1)
        #expect(try keys(fixture) == ["2", "3", "4", "5", "6"])
    }

    /// A total stated in `X-Total-Count` changes while a page's body does not: the 304 states the
    /// new one. Taken from the page's stored record instead, the first page's old total made every
    /// later sync see the fall again (exit 9 each time, nothing ever removed).
    @Test func aTotalInAFieldIsReadFromThe304() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ number: Int, _ ids: [Int], total: Int) -> Reply {
            let next = number < 3 ? ["Link": "<\(origin.baseURL)/things?_page=\(number + 1)&_limit=2>; rel=\"next\""] : [:]
            var reply = Reply(body: "[" + ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]",
                              etag: "\"p\(number)-" + ids.map(String.init).joined(separator: "-") + "\"",
                              headers: next.merging(["X-Total-Count": "\(total)"]) { $1 })
            reply.revalidates = true
            return reply
        }
        func serve(_ pages: [[Int]], totals: (Int, Int)) throws {
            try origin.serve(Dictionary(uniqueKeysWithValues: pages.enumerated().map { index, ids in
                ("/things?_page=\(index + 1)&_limit=2", page(index + 1, ids, total: index == 0 ? totals.0 : totals.1))
            }))
        }
        let url = origin.baseURL + "/things?_page=1&_limit=2"
        try serve([[1, 2], [3, 4], [5, 6]], totals: (6, 6))
        _ = try await fixture.sync(url)
        // Item 6 deleted once the first page was read: the total falls, nothing removed, exit 9.
        try serve([[1, 2], [3, 4], [5]], totals: (6, 5))
        let fell = try await fixture.sync(url)
        #expect(fell.removed == 0 && !fell.partial.isEmpty)
        // Quiet since: each page states 5; item 6 is removed, and nothing is partial. The first two
        // pages are 304s; the last, which holds item 6 again (kept where it was), is read whole;
        // the removal is confirmed by a second look at the three (304s).
        try serve([[1, 2], [3, 4], [5]], totals: (5, 5))
        let settled = try await fixture.sync(url)
        #expect(settled.fullResponses == 1 && settled.notModified == 2 + 3 && settled.removed == 1 && settled.partial.isEmpty)
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5"])
    }

    /// The same fall in json-server's shape: the next page in `Link`, the total in `X-Total-Count`,
    /// pages read ahead of their items (the read-ahead keeps each page's total).
    @Test func aTotalThatFallsInXTotalCountDuringALinkedPassIsSaid() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        func page(_ number: Int, _ ids: [Int], total: Int) -> Reply {
            let next = number < 3 ? ["Link": "<\(origin.baseURL)/things?_page=\(number + 1)&_limit=2>; rel=\"next\""] : [:]
            return Reply(body: "[" + ids.map { #"{"id": \#($0)}"# }.joined(separator: ", ") + "]",
                         headers: next.merging(["X-Total-Count": "\(total)"]) { $1 })
        }
        func serve(_ first: [Int], _ second: [Int], _ third: [Int], totals: (Int, Int)) throws {
            try origin.serve(["/things?_page=1&_limit=2": page(1, first, total: totals.0),
                              "/things?_page=2&_limit=2": page(2, second, total: totals.1),
                              "/things?_page=3&_limit=2": page(3, third, total: totals.1)])
        }
        let url = origin.baseURL + "/things?_page=1&_limit=2"
        try serve([1, 2], [3, 4], [5, 6], totals: (6, 6))
        #expect(try await fixture.sync(url).partial.isEmpty)
        try serve([1, 2], [4, 5], [6], totals: (6, 5))
        let shifted = try await fixture.sync(url)
        #expect(shifted.complete && shifted.removed == 0)
        #expect(shifted.partial == [PartialMirror.movedTotal("the collection's stated total fell from 6 to 5 while the pass read it")])
    }

    @Test func aStopNamesThePagesWrittenAndThePageWhoseLinkPointsBack() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        try origin.serve(["/things": Self.cursorPage(1...2, next: "2"), "/things?cursor=2": Self.cursorPage(3...4, next: "4"),
                          "/things?cursor=4": Self.cursorPage(5...6, next: "2")])
        let summaries = SummaryLog()
        await #expect(throws: SyncError.loop(url: origin.baseURL + "/things?cursor=2", pageIndex: 2)) {
            _ = try await fixture.engine.run(SyncOptions(url: URL(string: origin.baseURL + "/things")!)) { event in
                if case .page(let page) = event { summaries.record(page.summary) }
            }
        }
        #expect(summaries.last?.pagesWritten == 2)
    }
}

/// The summaries a sync's page events carried, in order.
final class SummaryLog: Sendable {
    private let summaries = Mutex<[SyncSummary]>([])

    func record(_ summary: SyncSummary) { summaries.withLock { $0.append(summary) } }

    var last: SyncSummary? { summaries.withLock { $0.last } }
}
