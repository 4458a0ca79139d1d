import Foundation
import Pagination
import Testing

@Suite("The page walk: the next request, the end and why")
struct PageWalkTests {
    static func url(_ cursor: String) -> URL { URL(string: "http://api.test/things?cursor=\(cursor)")! }
    static let first = URL(string: "http://api.test/things")!

    /// Follows `link` from the page the walk names, then counts its items.
    static func read(_ walk: inout PageWalk, next: URL?, items: Int = 10, endReason: String? = nil, total: Int? = nil) throws {
        try walk.follow(PageLink(next: next, endReason: endReason, statedTotal: total))
        try walk.count(items: items)
    }

    @Test func walksFromTheFirstPageToTheLastAndSaysWhyItEnded() throws {
        var walk = PageWalk(first: Self.first)
        #expect(walk.next == .page(index: 0, url: Self.first))
        try Self.read(&walk, next: Self.url("2"))
        #expect(walk.next == .page(index: 1, url: Self.url("2")))
        try Self.read(&walk, next: nil, items: 3, endReason: "'next_cursor' is null")
        #expect(walk.next == .end(PageWalk.End(reason: "'next_cursor' is null", unsettled: nil, lastPage: 1)))
    }

    @Test func theNextPageIsKnownBeforeThePageIsCounted() throws {
        // What read-ahead relies on: follow names the next page; counting comes after.
        var walk = PageWalk(first: Self.first)
        try walk.follow(PageLink(next: Self.url("2"), endReason: nil))
        #expect(walk.next == .page(index: 1, url: Self.url("2")))
        try walk.count(items: 10)
        #expect(walk.next == .page(index: 1, url: Self.url("2")))
    }

    @Test func aURLThisPassReadAlreadyIsALoop() throws {
        var walk = PageWalk(first: Self.first)
        try Self.read(&walk, next: Self.url("2"))
        #expect(throws: PageWalkError.loop(url: Self.first, afterPage: 1)) { try walk.follow(PageLink(next: Self.first, endReason: nil)) }
    }

    @Test func emptyPagesThatStillPointOnwardStopTheWalk() throws {
        var walk = PageWalk(first: Self.first, limits: PageWalk.Limits(maximumEmptyPages: 3))
        try Self.read(&walk, next: Self.url("1"), items: 0)
        try Self.read(&walk, next: Self.url("2"), items: 0)
        try walk.follow(PageLink(next: Self.url("3"), endReason: nil))
        #expect(throws: PageWalkError.emptyPages(url: Self.url("2"), count: 3)) { try walk.count(items: 0) }
    }

    @Test func aPageWithItemsStartsTheEmptyRunAgain() throws {
        var walk = PageWalk(first: Self.first, limits: PageWalk.Limits(maximumEmptyPages: 2))
        try Self.read(&walk, next: Self.url("1"), items: 0)
        try Self.read(&walk, next: Self.url("2"), items: 5)
        try Self.read(&walk, next: Self.url("3"), items: 0)
        try Self.read(&walk, next: nil, items: 0, endReason: "an empty page")
        #expect(walk.next == .end(PageWalk.End(reason: "an empty page", unsettled: nil, lastPage: 3)))
    }

    @Test func aPagePastTheEndEndsTheWalkUnlessATotalPromisedIt() throws {
        let page2 = URL(string: "http://api.test/things?page=2")!
        var ends = PageWalk(first: Self.first)
        try Self.read(&ends, next: page2)
        try ends.pastTheEnd(status: 404)
        #expect(ends.next == .end(PageWalk.End(reason: "page 2 answered 404: past the last page", unsettled: nil, lastPage: 0)))

        var promised = PageWalk(first: Self.first)
        try Self.read(&promised, next: page2, total: 50)
        #expect(throws: PageWalkError.missingPage(url: page2, status: 404)) { try promised.pastTheEnd(status: 404) }
    }

    @Test func aStatedTotalThatChangesEndsThePassUnsettled() throws {
        var walk = PageWalk(first: Self.first)
        try Self.read(&walk, next: Self.url("2"), total: 30)
        try Self.read(&walk, next: Self.url("3"), total: 31)
        try Self.read(&walk, next: nil, endReason: "reached the total", total: 31)
        guard case .end(let end) = walk.next else { Issue.record("the walk did not end"); return }
        #expect(end.reason == "reached the total")
        #expect(end.unsettled == "the collection's stated total changed from 30 to 31 while the pass read it")
    }

    /// A total that falls from one page to the next is said as the fall, even when it stays
    /// above the first (items removed ahead of pages still to read); one that only grows is not.
    @Test func aFallOfTheStatedTotalIsToldFromTheRise() throws {
        var walk = PageWalk(first: Self.first)
        try Self.read(&walk, next: Self.url("2"), total: 100)
        try Self.read(&walk, next: Self.url("3"), total: 103)
        #expect(walk.totalFall == nil)
        try Self.read(&walk, next: nil, endReason: "the last", total: 101)
        #expect(walk.totalFall == "the collection's stated total fell from 103 to 101 while the pass read it")
        #expect(walk.totalChange == "the collection's stated total changed from 100 to 103 while the pass read it")
        // A revisit keeps what the pass saw.
        let check = PageWalk(revisiting: Self.first, rejoining: nil, after: walk)
        #expect(check.totalFall == walk.totalFall)
    }

    @Test func aRunPausesAfterItsPageLimit() throws {
        var walk = PageWalk(first: Self.first, limits: PageWalk.Limits(maximumPages: 2))
        try Self.read(&walk, next: Self.url("2"))
        try Self.read(&walk, next: Self.url("3"))
        #expect(walk.next == .pause)
    }

    @Test func theLastPageEndsTheWalkEvenAtThePageLimit() throws {
        var walk = PageWalk(first: Self.first, limits: PageWalk.Limits(maximumPages: 1))
        try Self.read(&walk, next: nil, endReason: "a single document")
        #expect(walk.next == .end(PageWalk.End(reason: "a single document", unsettled: nil, lastPage: 0)))
    }

    @Test func theFirstPageSetsTheTypicalSize() throws {
        var walk = PageWalk(first: Self.first)
        #expect(walk.typicalSize == nil)
        try Self.read(&walk, next: Self.url("2"), items: 25)
        try Self.read(&walk, next: nil, items: 7, endReason: "a short page")
        #expect(walk.typicalSize == 25)
    }

    /// The digests a resumed walk is given for the pages read before it.
    static func digests(_ urls: URL...) -> [UInt64] { urls.map { PageWalk.digest(ofURL: $0.absoluteString) } }

    @Test func aResumedWalkGoesOnFromWhereThePassStood() throws {
        let point = PageWalk.ResumePoint(index: 2, url: Self.url("3"), readURLDigests: Self.digests(Self.first, Self.url("2")),
                                         firstPageSize: 10, statedTotal: nil, totalSaysMore: false)
        var walk = PageWalk(resuming: point)
        #expect(walk.next == .page(index: 2, url: Self.url("3")))
        #expect(walk.typicalSize == 10)
        // The pages read before the stop count for loops.
        #expect(throws: PageWalkError.loop(url: Self.url("2"), afterPage: 2)) { try walk.follow(PageLink(next: Self.url("2"), endReason: nil)) }
    }

    @Test func aResumedPassThatHadReadItsLastPageIsAtItsEnd() {
        let point = PageWalk.ResumePoint(index: 3, url: nil, readURLDigests: [], firstPageSize: nil, statedTotal: nil, totalSaysMore: false)
        #expect(PageWalk(resuming: point).next == .end(PageWalk.End(reason: "the pass had reached the last page", unsettled: nil, lastPage: 2)))
    }

    @Test func aResumedWalkKeepsThePromiseOfThePageBefore() throws {
        let page3 = URL(string: "http://api.test/things?page=3")!
        let point = PageWalk.ResumePoint(index: 2, url: page3, readURLDigests: [], firstPageSize: 10, statedTotal: 40, totalSaysMore: true)
        var walk = PageWalk(resuming: point)
        #expect(throws: PageWalkError.missingPage(url: page3, status: 404)) { try walk.pastTheEnd(status: 404) }
    }

    @Test func pagesReadBeforeTheWalkAreSteppedOverAtTheirOwnURL() throws {
        var walk = PageWalk(first: Self.first)
        try walk.stepOver([1: (Self.url("2"), PageLink(next: Self.url("3"), endReason: nil)),
                           2: (Self.url("other"), PageLink(next: nil, endReason: "last"))])
        try Self.read(&walk, next: Self.url("2"))
        // Page 2 was revalidated first: the walk goes straight to page 3, which it must fetch,
        // because what was read at index 2 was another URL.
        #expect(walk.next == .page(index: 2, url: Self.url("3")))
    }

    // MARK: A pass that ended by resuming

    /// A pass that stopped after two pages and resumed at the third, read to its end (page 4).
    static func resumedPassAtItsEnd() throws -> PageWalk {
        let point = PageWalk.ResumePoint(index: 2, url: Self.url("3"), readURLDigests: Self.digests(Self.first, Self.url("2")),
                                         firstPageSize: 10, statedTotal: nil, totalSaysMore: false)
        var walk = PageWalk(resuming: point)
        try Self.read(&walk, next: Self.url("4"))
        try Self.read(&walk, next: nil, endReason: "'next_cursor' is null")
        return walk
    }

    @Test func theSecondWalkOfAResumedPassRevisitsThePagesReadBeforeTheStop() throws {
        let pass = try Self.resumedPassAtItsEnd()
        var check = PageWalk(revisiting: Self.first, rejoining: (2, Self.url("3")), after: pass)
        #expect(check.next == .page(index: 0, url: Self.first))
        try Self.read(&check, next: Self.url("2"))
        // Page 2 still points to the page the run resumed at: the rest was read after the stop.
        try Self.read(&check, next: Self.url("3"))
        #expect(check.next == .end(PageWalk.End(reason: "'next_cursor' is null", unsettled: nil, lastPage: 3)))
    }

    @Test func aSecondWalkWhoseChainChangedGoesOnToTheRealEnd() throws {
        let pass = try Self.resumedPassAtItsEnd()
        var check = PageWalk(revisiting: Self.first, rejoining: (2, Self.url("3")), after: pass)
        try Self.read(&check, next: Self.url("2b"))
        try Self.read(&check, next: Self.url("3b"))
        #expect(check.next == .page(index: 2, url: Self.url("3b")))
        try Self.read(&check, next: nil, endReason: "the new last page")
        #expect(check.next == .end(PageWalk.End(reason: "the new last page", unsettled: nil, lastPage: 2)))
    }

    @Test func aTotalThatMovedBetweenTheTwoWalksLeavesThePassUnsettled() throws {
        var pass = PageWalk(first: Self.first)
        try Self.read(&pass, next: nil, items: 4, endReason: "the last", total: 10)
        var check = PageWalk(revisiting: Self.first, rejoining: nil, after: pass)
        try Self.read(&check, next: nil, items: 4, endReason: "the last", total: 9)
        guard case .end(let end) = check.next else { Issue.record("the walk did not end"); return }
        #expect(end.unsettled == "the collection's stated total changed from 10 to 9 while the pass read it")
    }

    /// A "total" that every page matches with its own item count is the page's count (some
    /// envelopes' `count`): a short last page is no fall, and the pass is settled.
    @Test func aTotalThatCountsThePagesOwnItemsIsNoFall() throws {
        var walk = PageWalk(first: Self.first)
        try Self.read(&walk, next: Self.url("2"), items: 10, total: 10)
        try Self.read(&walk, next: nil, items: 3, endReason: "the last", total: 3)
        #expect(walk.totalFall == nil && walk.totalChange == nil)
        guard case .end(let end) = walk.next else { Issue.record("the walk did not end"); return }
        #expect(end.unsettled == nil)
        // A real total (more than a page holds) falling is one.
        var real = PageWalk(first: Self.first)
        try Self.read(&real, next: Self.url("2"), items: 10, total: 25)
        try Self.read(&real, next: nil, items: 10, endReason: "the last", total: 24)
        #expect(real.totalFall == "the collection's stated total fell from 25 to 24 while the pass read it")
    }

    /// A pass resumed by a later run: a fall from the last page the run before read counts.
    @Test func aFallAcrossARunsStopCounts() throws {
        let point = PageWalk.ResumePoint(index: 2, url: Self.url("3"), readURLDigests: [], firstPageSize: 10, statedTotal: 40, totalSaysMore: true)
        var walk = PageWalk(resuming: point)
        try Self.read(&walk, next: nil, items: 10, endReason: "the last", total: 38)
        #expect(walk.totalFall == "the collection's stated total fell from 40 to 38 while the pass read it")
    }
}
