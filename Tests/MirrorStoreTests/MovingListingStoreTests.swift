import Foundation
import JSON
import MirrorStore
import StorageErrors
import StoreTestSupport
import Testing

/// Listings that move while a pass reads them, incremental merges and the records that go with
/// them: the same behaviour in both stores.
@Suite("Mirror store: moving listings and incremental merges")
struct MovingListingStoreTests {
    /// A page of pass `pass` whose listing may move.
    private func movingPage(_ mirror: StoreUnderTest, _ index: Int, pass: Int, _ contents: [(Int, String)]) async throws -> PageWrite {
        try await mirror.store.writePages([PageContent(index: index, url: "http://o.test/news?page=\(index + 1)", nextURL: "more",
                                                       validator: "v\(index)", items: items(contents), repeatsAllowed: true)],
                                          of: mirror.collection.id, pass: pass, now: Date())[0]
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyAnEarlierPageListedIsLeftWhereItWasWhenTheListingMayMove(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        #expect(try await movingPage(mirror, 0, pass: pass, [(9, "i"), (8, "h"), (7, "g")]) == PageWrite(created: 3))
        // Two entries joined the front: 8 and 7 come again at the start of page 2.
        #expect(try await movingPage(mirror, 1, pass: pass, [(8, "h"), (7, "g"), (6, "f")]) == PageWrite(created: 1, repeated: 2))
        #expect(try await mirror.keys() == [.integer(9), .integer(8), .integer(7), .integer(6)])
        // The page counts what it holds, but keeps no validator: it is not the page the server
        // sent, so the next sync reads it again (and lists 8 and 7 there when it still does).
        let pages = try await mirror.store.pages(of: mirror.collection.id)
        #expect(pages[1].map { $0.itemCount == 1 && $0.validator == nil } == true)
        #expect(pages[0]?.validator == "v0")
    }

    /// A page's validator vouches for the items its own write left on it: a page an item moved
    /// away from, or one a merge or a catch-up added to, keeps none, so the next pass reads it whole.
    @Test(arguments: StoreKind.allCases)
    func aPageThatLostOrGainedAnItemSinceItsWriteKeepsNoValidator(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        let pass = try await mirror.afterAFirstPassOfThreeItems()  // page 1: items 1 and 2; page 2: item 3
        // Item 3 moved to the front: the first page takes it from the second, not read yet this pass.
        try await mirror.write(0, pass: pass, [(3, "c"), (1, "a")])
        var pages = try await mirror.store.pages(of: id)
        #expect(pages[0]?.validator == "v0-ca", "item 2, set aside by the page's own rewrite, leaves it its validator")
        #expect(pages[1].map { $0.validator == nil && $0.itemCount == 1 } == true)
        try await mirror.write(1, pass: pass, [(2, "b")], next: nil)
        #expect(try await mirror.finish(pass, lastPage: 1) == 0)
        #expect(try await mirror.store.pages(of: id)[1]?.validator == "v1-b", "written again whole")
        // An incremental merge: 2 changes where it stands, 4 is added after it, on the second page.
        _ = try await mirror.store.mergeItems(items([(2, "B"), (4, "d")]), of: id, now: Date())
        pages = try await mirror.store.pages(of: id)
        #expect(pages[0]?.validator == "v0-ca" && pages[1]?.validator == nil)
        // A catch-up puts 5 on the first page, before its own items.
        let next = try await mirror.startPass().pass
        _ = try await mirror.store.writeCaughtUp(items([(5, "e")]), of: id, pass: next, firstPosition: ItemPosition.caughtUpBase, now: Date())
        #expect(try await mirror.store.pages(of: id)[0]?.validator == nil)
        #expect(try await mirror.keys() == [5, 3, 1, 2, 4].map { ItemKey.integer($0) })
    }

    /// Keys of text are looked up the same way (with their byte count: `"a\u{0}b"` is not `"a"`).
    @Test(arguments: StoreKind.allCases)
    func aTextKeyTakenFromAnotherPageLeavesItWithoutItsValidator(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        func page(_ index: Int, _ keys: [String], pass: Int) async throws {
            _ = try await mirror.store.writePages([PageContent(index: index, url: "u\(index)", nextURL: "more", validator: "v\(index)-\(pass)",
                                                               items: keys.map { (.string($0), Data(#"{"n":1}"#.utf8)) })],
                                                  of: mirror.collection.id, pass: pass, now: Date())
        }
        try await page(0, ["a", "a\u{0}b"], pass: 1)
        try await page(1, ["c"], pass: 1)
        try await page(0, ["c", "a"], pass: 2)
        let pages = try await mirror.store.pages(of: mirror.collection.id)
        #expect(pages[0]?.validator == "v0-2" && pages[1]?.validator == nil)
    }

    /// A mirror written before validators followed moves: when it opens, each page that does not
    /// hold what it wrote loses its validator, counted once.
    @Test(arguments: StoreKind.allCases)
    func aMirrorFromBeforeValidatorsFollowedMovesHasItsUnfaithfulPagesFoundOnce(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        _ = try await mirror.afterAFirstPassOfThreeItems()
        try mirror.execute(sqlite: """
            DELETE FROM grdb_migrations WHERE identifier = 'v11-validators-follow-moves';
            UPDATE item SET pageIndex = 1 WHERE pageIndex = 0 AND position = 1;
            """, postgresql: """
            DROP TRIGGER item_left_page ON item; DROP FUNCTION item_left_page();
            DELETE FROM migration WHERE name = 'v10-validators-follow-moves';
            UPDATE item SET page_index = 1 WHERE page_index = 0 AND position = 1;
            """)
        let before = try await mirror.store.pages(of: id)
        #expect(before[0]?.validator == "v0-ab" && before[1]?.validator == "v1-c", "no write saw item 2 move")
        let reopened = try await mirror.reopen()
        let after = try await reopened.pages(of: id)
        await reopened.close()
        #expect(after[0]?.validator == nil && after[1]?.validator == nil, "page 1 lost item 2, page 2 gained it")
        // A write's move drops the validator as it happens.
        let pass = try await mirror.afterAFirstPassOfThreeItems()
        try await mirror.write(0, pass: pass, [(3, "c")])
        #expect(try await mirror.store.pages(of: id)[1]?.validator == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aRepeatedKeyIsStillRefusedWhereTheListingCannotMove(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        try await mirror.write(0, pass: pass, [(1, "a"), (2, "b")])
        await #expect(throws: DuplicateKey.self) { try await mirror.write(1, pass: pass, [(2, "b"), (3, "c")]) }
    }

    @Test(arguments: StoreKind.allCases)
    func aCatchUpPutsTheNewItemsBeforeTheFirstPageInTheOrderFound(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let pass = try await mirror.startPass().pass
        _ = try await movingPage(mirror, 0, pass: pass, [(9, "i"), (8, "h")])
        _ = try await movingPage(mirror, 1, pass: pass, [(8, "h"), (7, "g")])
        // The first page again: 12 and 11 are new, 10 too, then 9 this pass listed.
        let first = try await mirror.store.writeCaughtUp(items([(12, "l"), (11, "k")]), of: mirror.collection.id, pass: pass,
                                                         firstPosition: ItemPosition.caughtUpBase, now: Date())
        let second = try await mirror.store.writeCaughtUp(items([(10, "j"), (9, "i")]), of: mirror.collection.id, pass: pass,
                                                          firstPosition: ItemPosition.caughtUpBase + 2, now: Date())
        #expect(first == PageWrite(created: 2) && second == PageWrite(created: 1, repeated: 1))
        #expect(try await mirror.finish(pass, lastPage: 1) == 0)
        #expect(try await mirror.keys() == [12, 11, 10, 9, 8, 7].map { ItemKey.integer($0) })
        #expect(try await mirror.store.itemCount(in: mirror.collection.id) == 6)
    }

    @Test(arguments: StoreKind.allCases)
    func anIncrementalMergeUpdatesInPlaceAddsAfterTheLastAndRemovesNothing(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        _ = try await mirror.afterAFirstPassOfThreeItems()
        let merged = try await mirror.store.mergeItems(items([(2, "changed"), (4, "new"), (3, "c")]), of: mirror.collection.id, now: Date())
        #expect(merged == PageWrite(created: 1, changed: 1))
        #expect(try await mirror.keys() == [1, 2, 3, 4].map { ItemKey.integer($0) })
        let stored = try await mirror.storedItems()
        #expect(try sameJSON(stored[1].json, #"{"id":2,"title":"changed","extra":{"nested":[1,2]}}"#))
    }

    @Test(arguments: StoreKind.allCases)
    func theLargestValueOfAMemberIsWhatAnIncrementalSyncSends(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        #expect(try await mirror.store.largestValue(of: JSONPath(["updated_at"]), in: mirror.collection.id) == nil)
        try await mirror.write([(.integer(1), #"{"id":1,"updated_at":"2024-05-01T10:00:00Z","n":9}"#),
                                (.integer(2), #"{"id":2,"updated_at":"2024-12-31T23:59:59Z","n":10}"#),
                                (.integer(3), #"{"id":3,"updated_at":null,"n":2.5}"#)])
        #expect(try await mirror.store.largestValue(of: JSONPath(["updated_at"]), in: mirror.collection.id) == "2024-12-31T23:59:59Z")
        // Numbers by value, not as text ("9" > "10").
        #expect(try await mirror.store.largestValue(of: JSONPath(["n"]), in: mirror.collection.id) == "10")
        #expect(try await mirror.store.largestValue(of: JSONPath(["missing"]), in: mirror.collection.id) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aCollectionKeepsItsSinceAndItsLastPassKindAndCanBeRenamed(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let id = mirror.collection.id
        try await mirror.store.rememberSince("since=updated_at", of: id)
        try await mirror.store.recordPassKind(.incremental, of: id)
        try await mirror.store.renameCollection(id, to: "news")
        let record = try #require(try await mirror.store.collection(id: id))
        #expect(record.since == "since=updated_at" && record.lastPassKind == .incremental && record.name == "news")
        _ = try await mirror.store.createCollection(preferredName: "taken", url: "http://o.test/taken", now: Date())
        await #expect(throws: StorageError.self) { try await mirror.store.renameCollection(id, to: "taken") }
    }
}
