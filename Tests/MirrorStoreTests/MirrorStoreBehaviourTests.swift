import Foundation
import HTTPTypes
import JSON
import MirrorStore
import Pagination
import StoreTestSupport
import Testing

/// What every mirror promises (see `MirrorStore`), run against both stores: the SQLite file and
/// a PostgreSQL database of a throwaway cluster.
@Suite("Mirror store: the same behaviour in SQLite and PostgreSQL")
struct MirrorStoreBehaviourTests {
    static let linkPlan = PaginationPlan(style: .link, items: JSONPath([]), key: JSONPath(["id"]), sizeParameter: "limit")
    // MARK: Collections

    /// Names made from URLs are lower-cased; a user typing the URL's own case still finds the
    /// collection, unless two names differ only in case.
    @Test(arguments: StoreKind.allCases)
    func aCollectionIsFoundByItsNameInAnotherCaseWhenOnlyOneMatches(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let store = mirror.store
        #expect(try await store.collection(meaning: "Posts")?.id == mirror.collection.id)
        #expect(try await store.collection(meaning: "post") == nil)
        let upper = try await store.createCollection(preferredName: "Posts", url: "http://other.test/Posts", now: Date())
        #expect(upper.name == "Posts")
        #expect(try await store.collection(meaning: "Posts")?.id == upper.id)
        #expect(try await store.collection(meaning: "posts")?.id == mirror.collection.id)
        #expect(try await store.collection(meaning: "POSTS") == nil)
    }

    /// Where an incremental run started is kept until an incremental run ends: a whole pass
    /// (whose pages may be fresh hits) keeps it, another `--since` forgets it.
    @Test(arguments: StoreKind.allCases)
    func anIncrementalStartIsKeptUntilAnIncrementalRunEnds(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let store = mirror.store, id = mirror.collection.id
        func start() async throws -> String? { try await store.collection(id: id)?.incrementalFrom }
        try await store.recordIncrementalStart("2024-01-01", of: id)
        try await store.recordPassKind(.full, of: id)
        #expect(try await start() == "2024-01-01")
        try await store.recordPassKind(.incremental, of: id)
        #expect(try await start() == nil)
        try await store.recordIncrementalStart("2024-02-01", of: id)
        try await store.rememberSince("since=modified", of: id)
        let record = try await store.collection(id: id)
        #expect(record?.incrementalFrom == nil && record?.lastPassKind == .incremental)
    }

    @Test(arguments: StoreKind.allCases)
    func collectionsGetUniqueNamesAndDeleteWithTheirItems(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let other = try await mirror.store.createCollection(preferredName: "posts", url: "http://other.test/posts", now: Date())
        #expect(other.name == "posts-2")
        try await mirror.write(0, pass: 1, [(1, "a")])
        #expect(try await mirror.store.deleteCollection(mirror.collection.id) == 1)
        #expect(try await mirror.store.collections().map(\.name) == ["posts-2"])
        #expect(try await mirror.store.itemCount(in: mirror.collection.id) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aCollectionKeepsItsPlanHeadersAndHowItsLastSyncEnded(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        try await mirror.store.setPlan(Self.linkPlan, url: "http://o.test/posts?limit=5", of: id)
        try await mirror.store.rememberHeaders([.accept: "application/json"], of: id)
        try await mirror.store.recordSyncEnd(of: id, error: "the server said 500", at: Date(timeIntervalSince1970: 1000))
        try await mirror.store.markShown(id, upTo: 3)
        let record = try #require(try await mirror.store.collection(id: id))
        #expect(record.plan == Self.linkPlan)
        #expect(record.url == "http://o.test/posts?limit=5")
        #expect(record.headerFields == [.accept: "application/json"])
        #expect(record.lastError == "the server said 500")
        #expect(record.lastSyncAt == 1000)
        #expect(record.shownSequence == 3)
        try await mirror.write(0, pass: 1, [(1, "a"), (2, "b")])
        let summary = try #require(try await mirror.store.summaries().first)
        #expect(summary.itemCount == 2 && summary.pageCount == 1 && summary.bytes > 0)
    }

    /// What removing a collection may forget in the cache: its page URLs no other collection uses.
    @Test(arguments: StoreKind.allCases)
    func pageURLsOnlyInACollectionLeaveOutThoseAnotherSyncsToo(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        _ = try await mirror.afterAFirstPassOfThreeItems()
        let other = try await mirror.store.createCollection(preferredName: "again", url: "http://o.test/posts", now: Date())
        _ = try await mirror.store.writePages([PageContent(index: 0, url: "http://o.test/posts?page=1", nextURL: nil, validator: "v",
                                                           items: items([(9, "z")]))], of: other.id, pass: 1, now: Date())
        #expect(try await mirror.store.pageURLs(onlyIn: mirror.collection.id) == ["http://o.test/posts?page=2"])
        #expect(try await mirror.store.pageURLs(onlyIn: other.id).isEmpty)
    }

    // MARK: Pages and passes

    @Test(arguments: StoreKind.allCases)
    func aPageIsStoredItemByItemInOrder(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        #expect(try await mirror.write(0, pass: pass, [(1, "한국어"), (2, "b")]) == PageWrite(created: 2, changed: 0))
        let stored = try await mirror.storedItems()
        #expect(stored.map(\.key) == [.integer(1), .integer(2)])
        // PostgreSQL's JSONB keeps the members, not their order: compare as JSON.
        #expect(try sameJSON(stored[0].json, #"{"id":1,"title":"한국어","extra":{"nested":[1,2]}}"#))
        #expect(!stored[0].json.contains(" "), "compact, as the server's JSON is kept")
        let page = try #require(try await mirror.store.pages(of: mirror.collection.id)[0])
        #expect(page.itemCount == 2 && page.validator == "v0-한국어b" && page.nextURL == "more")
    }

    @Test(arguments: StoreKind.allCases)
    func rewritingAPageCountsOnlyRealChanges(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write(0, pass: 1, [(1, "a"), (2, "b")])
        #expect(try await mirror.write(0, pass: 2, [(1, "a"), (2, "B"), (3, "c")]) == PageWrite(created: 1, changed: 1))
    }

    @Test(arguments: StoreKind.allCases)
    func aCompletePassDeletesItemsNoPageListsAndPagesPastTheEnd(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        var pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a"), (2, "b")])
        try await mirror.write(1, pass: pass, [(3, "c")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 1) == 0)
        pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 0) == 2)
        #expect(try await mirror.keys() == [.integer(1)])
        #expect(try await mirror.store.pages(of: mirror.collection.id)[1] == nil)
    }

    /// A pass resumed after the server lost a page: its own page rows past the new end go.
    @Test(arguments: StoreKind.allCases)
    func aPassThatEndsEarlierThanTheLastDropsThePagesBeyondItsEnd(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a")])
        try await mirror.write(1, pass: pass, [(2, "b")])
        try await mirror.write(2, pass: pass, [(3, "c")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 1) == 1)
        #expect(try await mirror.store.pages(of: mirror.collection.id).keys.sorted() == [0, 1])
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
    }

    @Test(arguments: StoreKind.allCases)
    func anIncompletePassDeletesNothing(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        try await mirror.write(0, pass: pass, [(1, "a")], next: nil)
        #expect(try await mirror.store.finishPass(pass, of: mirror.collection.id, lastPage: 0, removingUnlisted: false, recording: .partial,
                                                  now: Date()) == 0)
        // The pass's kind is written with its end, in one transaction.
        #expect(try await mirror.store.collection(id: mirror.collection.id)?.lastPassKind == .partial)
        try await mirror.store.abandonPass(of: mirror.collection.id)
        #expect(try await mirror.store.collection(id: mirror.collection.id)?.passComplete == true)
        #expect(try await mirror.keys() == [1, 2, 3].map { ItemKey.integer($0) },
                "2, set aside, is put back after page 0's items; 3 stays, though its page is gone")
        #expect(try await mirror.store.setAsideCount(of: mirror.collection.id) == 0)
    }

    /// A pass that stops after rewriting a page puts what the page set aside back, after the
    /// items of the last page it read, in the order they had: shown until a pass reads where the
    /// server lists them now. It had stayed hidden (still in the file) until a pass completed.
    /// That page loses its validator (it no longer holds what its write left), the collection
    /// takes a change number, so that readers look again, and the next sync starts the pass
    /// over: resumed, it would take the items put back for items it listed.
    @Test(arguments: StoreKind.allCases)
    func aStoppedPassPutsBackWhatItsPagesSetAside(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        try await mirror.store.setPlan(Self.linkPlan, url: "http://o.test/posts", of: id)
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        // 8 and 9 were added at the front: 1 and 2 slide onto page 1, whose read then fails.
        try await mirror.write(0, pass: pass, [(8, "h"), (9, "i")])
        #expect(try await mirror.keys() == [8, 9, 3].map { ItemKey.integer($0) }, "1 and 2 are set aside")
        let before = try #require(try await mirror.store.collection(id: id)).changeSequence
        #expect(try await mirror.store.putBackSetAside(of: id) == 2)
        #expect(try await mirror.keys() == [8, 9, 1, 2, 3].map { ItemKey.integer($0) })
        #expect(try await mirror.store.setAsideCount(of: id) == 0)
        #expect(try await mirror.store.pages(of: id)[0]?.validator == nil)
        #expect(try #require(try await mirror.store.collection(id: id)).changeSequence > before)
        #expect(try await mirror.store.putBackSetAside(of: id) == 0, "nothing is left to put back")
        let next = try await mirror.startPass()
        #expect(!next.isResumed && next.pass == pass + 1)
        // Page 0 read again sets 1 and 2 aside anew; page 1 lists them, and they move there.
        try await mirror.write(0, pass: next.pass, [(8, "h"), (9, "i")])
        let secondPage = try await mirror.write(1, pass: next.pass, [(1, "a"), (2, "b"), (3, "c")], next: nil)
        #expect(secondPage.created == 0)
        #expect(try await mirror.finish(next.pass, lastPage: 1) == 0)
        #expect(try await mirror.keys() == [8, 9, 1, 2, 3].map { ItemKey.integer($0) })
    }

    /// Items set aside from several pages go back after the last page read, ordered by the page
    /// each came from: pushed on by entries added at the front, that is where they were going.
    /// (Each after its own page put item 1 of page 0 ahead of page 1's items, which came before it.)
    @Test(arguments: StoreKind.allCases)
    func itemsSetAsideFromSeveralPagesGoBackInTheirOrder(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        let first = try await mirror.startPass().pass
        try await mirror.write(0, pass: first, [(9, "a"), (8, "b"), (7, "c")])
        try await mirror.write(1, pass: first, [(6, "d"), (5, "e"), (4, "f")], next: nil)
        _ = try await mirror.finish(first, lastPage: 1)
        let pass = try await mirror.startPass().pass
        // 13 to 10 added at the front; the third page fails.
        try await mirror.write(0, pass: pass, [(13, "m"), (12, "l"), (11, "k")])
        try await mirror.write(1, pass: pass, [(10, "j"), (9, "a"), (8, "b")])
        #expect(try await mirror.store.putBackSetAside(of: id) == 4)
        #expect(try await mirror.keys() == (4...13).reversed().map { ItemKey.integer($0) })
    }

    /// A stopped pass that set nothing aside is resumed after its last page, as before.
    @Test(arguments: StoreKind.allCases)
    func aStoppedPassWithNothingSetAsideIsResumed(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.store.setPlan(Self.linkPlan, url: "http://o.test/posts", of: mirror.collection.id)
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        try await mirror.unchanged(0, pass: pass)
        #expect(try await mirror.store.putBackSetAside(of: mirror.collection.id) == 0)
        let resumed = try await mirror.startPass()
        #expect(resumed.isResumed && resumed.pass == pass && resumed.nextPageIndex == 1)
    }

    /// Items a page set aside in two writes of one run (a second look rewrote it) each get a
    /// place of their own when put back: with the same one, a reader paging by position skipped one.
    @Test(arguments: StoreKind.allCases)
    func itemsSetAsideByTwoWritesOfAPageArePutBackInPlacesOfTheirOwn(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        let first = try await mirror.startPass().pass
        try await mirror.write(0, pass: first, [(1, "u"), (2, "c")], next: nil)
        _ = try await mirror.finish(first, lastPage: 0)
        let pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(3, "v"), (2, "c")], next: nil)
        let again = try await mirror.store.revisitPass(of: id, now: Date())
        try await mirror.write(0, pass: again, [(4, "w"), (2, "c")], next: nil)
        #expect(try await mirror.store.putBackSetAside(of: id) == 2)
        let rows = try await mirror.store.rows(in: id, from: nil, limit: 10, fields: RowFields(title: [], subtitle: []))
        #expect(rows.map(\.key) == [4, 2, 1, 3].map { ItemKey.integer($0) })
        #expect(Set(rows.map(\.at)).count == 4, "each in a place of its own")
    }

    @Test(arguments: StoreKind.allCases)
    func unchangedPagesKeepTheirItemsWithoutBeingWritten(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        let before = try await mirror.store.collection(id: mirror.collection.id)?.changeSequence
        try await mirror.unchanged(0, pass: pass)
        #expect(try await mirror.store.collection(id: mirror.collection.id)?.changeSequence == before, "nothing rewritten")
        try await mirror.write(1, pass: pass, [(3, "c"), (4, "d")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 1) == 0)
        #expect(try await mirror.keys() == [1, 2, 3, 4].map { ItemKey.integer($0) })
    }

    @Test(arguments: StoreKind.allCases)
    func anItemThatMovesToALaterPageIsKeptNotCountedAsNew(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        // Item 0 was inserted at the front: 2 slides onto page 1.
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        let frontPage = try await mirror.write(0, pass: pass, [(0, "z"), (1, "a")])
        #expect(try await mirror.keys() == [0, 1, 3].map { ItemKey.integer($0) }, "2 is set aside while no page lists it")
        let secondPage = try await mirror.write(1, pass: pass, [(2, "b"), (3, "c")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 1) == 0)
        #expect(frontPage.created + secondPage.created == 1)
        #expect(try await mirror.keys() == [0, 1, 2, 3].map { ItemKey.integer($0) })
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyOnTwoPagesOfOnePassIsRefusedAndNothingOfThatPageIsWritten(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write(0, pass: 1, [(1, "a"), (2, "b")])
        await #expect(throws: DuplicateKey(key: "2", pageIndex: 0, foundOnPage: 1, written: [])) {
            try await mirror.write(1, pass: 1, [(2, "b"), (3, "c")])
        }
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
        #expect(try await mirror.store.pages(of: mirror.collection.id)[1] == nil)
    }

    /// Pages written together: those before the refused one are written, it and the rest are not.
    @Test(arguments: StoreKind.allCases)
    func aRefusedPageInABatchKeepsThePagesBeforeIt(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pages = [[(1, "a")], [(2, "b")], [(1, "again")], [(4, "d")]].enumerated().map { index, contents in
            PageContent(index: index, url: "u\(index)", nextURL: "next", validator: nil, items: items(contents))
        }
        await #expect(throws: DuplicateKey(key: "1", pageIndex: 0, foundOnPage: 2, written: [PageWrite(created: 1), PageWrite(created: 1)])) {
            _ = try await mirror.store.writePages(pages, of: mirror.collection.id, pass: 1, now: Date())
        }
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
        #expect(try await mirror.store.pages(of: mirror.collection.id).keys.sorted() == [0, 1])
    }

    /// Current and changed pages written together, in order: a current page's items count as
    /// listed in this pass for the changed pages after it.
    @Test(arguments: StoreKind.allCases)
    func aBatchOfCurrentAndChangedPagesIsWrittenInOrder(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        for (index, contents) in [[(1, "a")], [(2, "b")], [(3, "c")]].enumerated() {
            try await mirror.write(index, pass: 1, contents)
        }
        func page(_ index: Int, _ contents: [(Int, String)]?) -> PageContent {
            PageContent(index: index, url: "u\(index)", nextURL: "next", validator: nil, items: contents.map(items))
        }
        let writes = try await mirror.store.writePages([page(0, nil), page(1, [(2, "b, changed")]), page(2, nil)],
                                                       of: mirror.collection.id, pass: 2, now: Date())
        #expect(writes == [PageWrite(), PageWrite(changed: 1), PageWrite()])
        #expect(try await mirror.store.pages(of: mirror.collection.id).values.map(\.pass).sorted() == [2, 2, 2])
        await #expect(throws: DuplicateKey(key: "1", pageIndex: 0, foundOnPage: 1, written: [PageWrite()])) {
            _ = try await mirror.store.writePages([page(0, nil), page(1, [(1, "a")])], of: mirror.collection.id, pass: 3, now: Date())
        }
        #expect(try await mirror.keys() == [1, 2, 3].map { ItemKey.integer($0) })
    }

    @Test(arguments: StoreKind.allCases)
    func anUnfinishedPassResumesAfterItsLastPage(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        try await mirror.store.setPlan(Self.linkPlan, url: "http://o.test/posts", of: id)
        let pass = try await mirror.startPass()
        try await mirror.write(0, pass: pass.pass, [(1, "a")], next: "http://o.test/posts?page=2")
        try await mirror.write(1, pass: pass.pass, [(2, "b")], next: "http://o.test/posts?page=3")
        let resumed = try await mirror.store.startPass(of: id, restart: false, now: Date())
        #expect(resumed == PassPosition(pass: pass.pass, isResumed: true, nextPageIndex: 2, nextURL: "http://o.test/posts?page=3",
                                        fetchedURLDigests: ["http://o.test/posts?page=1", "http://o.test/posts?page=2"].map(PageWalk.digest(ofURL:))))
        #expect(try await mirror.store.startPass(of: id, restart: true, now: Date()).pass == pass.pass + 1)
    }

    /// A resumed pass is revisited from the first page; the pages after the resume join it.
    @Test(arguments: StoreKind.allCases)
    func aRevisitPassTakesOverThePagesReadAfterTheResume(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        let pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a")])
        try await mirror.write(1, pass: pass, [(2, "b")], next: nil)
        let revisit = try await mirror.store.revisitPass(of: id, now: Date())
        #expect(revisit == pass + 1)
        try await mirror.unchanged(0, pass: revisit)
        try await mirror.store.joinPass(revisit, of: id, pagesFrom: 1)
        #expect(try await mirror.store.pages(of: id).values.map(\.pass).sorted() == [revisit, revisit])
        #expect(try await mirror.finish(revisit, lastPage: 1) == 0)
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
    }

    /// Asked before a pass ends, whether its end would remove anything: an item set aside, one
    /// past the last page, one on a page the pass has not read; nothing once every item is listed.
    @Test(arguments: StoreKind.allCases)
    func aPassCanAskWhetherItsEndWouldRemoveItems(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        let second = try await mirror.afterAFirstPassOfThreeItems()
        try await mirror.unchanged(0, pass: second)
        #expect(try await mirror.store.unlistedItems(after: second, of: id, lastPage: 1).count == 1, "page 1 is not read yet")
        try await mirror.unchanged(1, pass: second)
        #expect(try await mirror.store.unlistedItems(after: second, of: id, lastPage: 1).isEmpty)
        #expect(try await mirror.store.unlistedItems(after: second, of: id, lastPage: 0).count == 1, "item 3 is past the last page")
        try await mirror.write(0, pass: second, [(1, "a")])
        let setAside = try await mirror.store.unlistedItems(after: second, of: id, lastPage: 1)
        #expect(setAside.count == 1, "item 2 is set aside")
        #expect(try await mirror.store.setAsideCount(of: id) == 1)
        try await mirror.write(1, pass: second, [(2, "b"), (3, "c")], next: nil)
        #expect(try await mirror.store.unlistedItems(after: second, of: id, lastPage: 1).isEmpty)
        #expect(try await mirror.store.setAsideCount(of: id) == 0)
        #expect(try await mirror.finish(second, lastPage: 1) == 0)
        // What it says is there to remove, the pass's end removes.
        let third = try await mirror.startPass().pass
        try await mirror.write(0, pass: third, [(1, "a")])
        try await mirror.write(1, pass: third, [(3, "c")], next: nil)
        // The same item unlisted, told by its row: the same reading as before.
        #expect(try await mirror.store.unlistedItems(after: third, of: id, lastPage: 1) == setAside)
        #expect(try await mirror.finish(third, lastPage: 1) == 1)
        #expect(try await mirror.keys() == [.integer(1), .integer(3)])
    }

    @Test(arguments: StoreKind.allCases)
    func resettingAPlanForgetsThePagesButNotTheItems(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.store.setPlan(Self.linkPlan, url: "http://o.test/posts", of: mirror.collection.id)
        _ = try await mirror.afterAFirstPassOfThreeItems()
        try await mirror.store.resetPlan(of: mirror.collection.id)
        #expect(try await mirror.store.collection(id: mirror.collection.id)?.plan == nil)
        #expect(try await mirror.store.pages(of: mirror.collection.id).isEmpty)
        #expect(try await mirror.store.itemCount(in: mirror.collection.id) == 3)
    }

    // MARK: Keys and values

    @Test(arguments: StoreKind.allCases)
    func integerAndStringKeysAreDifferentItems(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write([(.integer(1), #"{"id":1}"#), (.string("1"), #"{"id":"1"}"#)])
        #expect(try await mirror.keys() == [.integer(1), .string("1")])
    }

    @Test(arguments: StoreKind.allCases)
    func stringsWithANULCharacterSurviveInKeysAndItems(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write([(.string("a\u{0}x"), #"{"id":"a\u0000x"}"#), (.string("a\u{0}y"), #"{"id":"a\u0000y"}"#)])
        #expect(try await mirror.keys() == [.string("a\u{0}x"), .string("a\u{0}y")])
        #expect(try await mirror.storedItems().map(\.json) == [#"{"id":"a\u0000x"}"#, #"{"id":"a\u0000y"}"#])
    }

    @Test(arguments: StoreKind.allCases)
    func filtersCompareMembersAsText(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write([
            (.integer(1), #"{"id":1,"n":5,"ok":true,"t":"Swift","user":{"login":"kim"}}"#),
            (.integer(2), #"{"id":2,"n":"5","ok":false,"t":"Rust"}"#),
            (.integer(3), #"{"id":3,"n":null,"t":"Go"}"#),
        ])
        func matching(_ text: String) async throws -> [ItemKey] { try await mirror.keys(filters: [ItemFilter(parsing: text)!]) }
        #expect(try await matching("n=5") == [.integer(1), .integer(2)])
        #expect(try await matching("ok=true") == [.integer(1)])
        #expect(try await matching("t~swi") == [.integer(1)])
        #expect(try await matching("t!=Swift") == [.integer(2), .integer(3)])
        #expect(try await matching("n=null") == [.integer(3)])
        #expect(try await matching("ok=") == [.integer(3)], "a missing member is empty text")
        #expect(try await matching("user.login=kim") == [.integer(1)])
        #expect(try await matching("missing=x").isEmpty)
        #expect(try await mirror.keys(filters: [ItemFilter(parsing: "n=5")!, ItemFilter(parsing: "t=Rust")!]) == [.integer(2)])
    }
}
