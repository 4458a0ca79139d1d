import Foundation
import GRDB
import JSON
import MirrorStore
@testable import Storage
import Testing

/// Items as a sync hands them to the database: key and compact JSON.
func items(_ items: [(Int, String)]) -> [(key: ItemKey, json: Data)] {
    items.map { (key: .integer($0.0), json: Data(#"{"id":\#($0.0),"title":"\#($0.1)","extra":{"nested":[1,2]}}"#.utf8)) }
}

/// An item database in a temporary directory with one collection, and page writes in its terms.
struct Mirror {
    let directory: TemporaryDirectory
    let database: SQLiteMirror
    let collection: CollectionRecord

    init() throws {
        directory = try TemporaryDirectory()
        database = try SQLiteMirror(path: directory.file("data.sqlite"))
        collection = try database.createCollection(preferredName: "posts", url: "http://o.test/posts")
    }

    @discardableResult
    func write(_ index: Int, pass: Int, _ contents: [(Int, String)], next: String? = "more") throws -> PageWrite {
        try database.writePagesNow([PageContent(index: index, url: "http://o.test/posts?page=\(index + 1)", nextURL: next,
                                             validator: "v\(index)-\(contents.map(\.1).joined())", items: items(contents))],
                                of: collection.id, pass: pass, now: Date())[0]
    }

    func unchanged(_ index: Int, pass: Int) throws {
        _ = try database.writePagesNow([PageContent(index: index, url: "u", nextURL: nil, validator: nil, items: nil)], of: collection.id, pass: pass, now: Date())
    }

    /// A complete first pass of two pages, items 1 and 2 then 3; returns the next pass.
    func afterAFirstPassOfThreeItems() throws -> Int {
        let first = try database.startPass(of: collection.id, restart: false).pass
        try write(0, pass: first, [(1, "a"), (2, "b")])
        try write(1, pass: first, [(3, "c")], next: nil)
        _ = try database.finishPass(first, of: collection.id, lastPage: 1)
        return try database.startPass(of: collection.id, restart: false).pass
    }

    func keys() throws -> [ItemKey] {
        var keys: [ItemKey] = []
        try database.forEachItem(in: collection.id) { keys.append($0.key) }
        return keys
    }
}

@Suite("Item database: collections, pages, passes (SQLite)")
struct SQLiteMirrorTests {
    /// Names made from URLs are lower-cased; a user typing the URL's own case still finds the
    /// collection, unless two names differ only in case.
    @Test func aCollectionIsFoundByItsNameInAnotherCaseWhenOnlyOneMatches() async throws {
        let mirror = try Mirror()
        #expect(try await mirror.database.collection(meaning: "Posts")?.id == mirror.collection.id)
        #expect(try await mirror.database.collection(meaning: "posts")?.id == mirror.collection.id)
        #expect(try await mirror.database.collection(meaning: "post") == nil)
        let upper = try mirror.database.createCollection(preferredName: "Posts", url: "http://other.test/Posts")
        #expect(upper.name == "Posts")
        #expect(try await mirror.database.collection(meaning: "Posts")?.id == upper.id)
        #expect(try await mirror.database.collection(meaning: "posts")?.id == mirror.collection.id)
        #expect(try await mirror.database.collection(meaning: "POSTS") == nil)
    }

    /// What removing a collection may forget in the cache: its page URLs no other collection uses.
    @Test func pageURLsOnlyInACollectionLeaveOutThoseAnotherSyncsToo() throws {
        let mirror = try Mirror()
        _ = try mirror.afterAFirstPassOfThreeItems()
        let other = try mirror.database.createCollection(preferredName: "again", url: "http://o.test/posts")
        let pass = try mirror.database.startPass(of: other.id, restart: false).pass
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "http://o.test/posts?page=1", nextURL: nil, validator: "v",
                                                        items: items([(9, "z")]))], of: other.id, pass: pass, now: Date())
        #expect(try mirror.database.pageURLs(onlyIn: mirror.collection.id) == ["http://o.test/posts?page=2"])
        #expect(try mirror.database.pageURLs(onlyIn: other.id).isEmpty)
    }

    @Test func aPageIsStoredItemByItemInOrder() throws {
        let mirror = try Mirror()
        let pass = try mirror.database.startPass(of: mirror.collection.id, restart: false).pass
        let write = try mirror.write(0, pass: pass, [(1, "한국어"), (2, "b")])
        #expect(write == PageWrite(created: 2, changed: 0))
        var items: [StoredItem] = []
        try mirror.database.forEachItem(in: mirror.collection.id) { items.append($0) }
        #expect(items.map(\.key) == [.integer(1), .integer(2)])
        #expect(items[0].json == #"{"id":1,"title":"한국어","extra":{"nested":[1,2]}}"#)
        #expect(try mirror.database.pages(of: mirror.collection.id)[0]?.itemCount == 2)
    }

    @Test func rewritingAPageCountsOnlyRealChanges() throws {
        let mirror = try Mirror()
        _ = try mirror.write(0, pass: 1, [(1, "a"), (2, "b")])
        let again = try mirror.write(0, pass: 2, [(1, "a"), (2, "B"), (3, "c")])
        #expect(again == PageWrite(created: 1, changed: 1))
    }

    @Test func aCompletePassDeletesItemsNoPageListsAndPagesPastTheEnd() throws {
        let mirror = try Mirror()
        let id = mirror.collection.id
        var pass = try mirror.database.startPass(of: id, restart: false).pass
        try mirror.write(0, pass: pass, [(1, "a"), (2, "b")])
        try mirror.write(1, pass: pass, [(3, "c")], next: nil)
        #expect(try mirror.database.finishPass(pass, of: id, lastPage: 1) == 0)
        pass = try mirror.database.startPass(of: id, restart: false).pass
        try mirror.write(0, pass: pass, [(1, "a")], next: nil)
        #expect(try mirror.database.finishPass(pass, of: id, lastPage: 0) == 2)
        #expect(try mirror.keys() == [.integer(1)])
        #expect(try mirror.database.pages(of: id)[1] == nil)
    }

    @Test func aPassThatEndsEarlierThanTheLastDropsThePagesBeyondItsEnd() throws {
        // A pass resumed after the server lost a page: its own page rows past the new end go.
        let mirror = try Mirror()
        let id = mirror.collection.id
        let pass = try mirror.database.startPass(of: id, restart: false).pass
        try mirror.write(0, pass: pass, [(1, "a")])
        try mirror.write(1, pass: pass, [(2, "b")])
        try mirror.write(2, pass: pass, [(3, "c")], next: nil)
        #expect(try mirror.database.finishPass(pass, of: id, lastPage: 1) == 1)
        #expect(try mirror.database.pages(of: id).keys.sorted() == [0, 1])
        #expect(try mirror.keys() == [.integer(1), .integer(2)])
    }

    @Test func unchangedPagesKeepTheirItemsWithoutBeingWritten() throws {
        let mirror = try Mirror()
        let id = mirror.collection.id
        let pass = try mirror.afterAFirstPassOfThreeItems()
        try mirror.unchanged(0, pass: pass)
        try mirror.write(1, pass: pass, [(3, "c"), (4, "d")], next: nil)
        #expect(try mirror.database.finishPass(pass, of: id, lastPage: 1) == 0)
        #expect(try mirror.keys() == [1, 2, 3, 4].map { ItemKey.integer($0) })
    }

    @Test func anItemThatMovesToALaterPageIsKeptNotCountedAsNew() throws {
        let mirror = try Mirror()
        let id = mirror.collection.id
        // Item 0 was inserted at the front: 2 slides onto page 1.
        let pass = try mirror.afterAFirstPassOfThreeItems()
        let frontPage = try mirror.write(0, pass: pass, [(0, "z"), (1, "a")])
        #expect(try mirror.keys() == [0, 1, 3].map { ItemKey.integer($0) }, "2 is set aside while no page lists it")
        let secondPage = try mirror.write(1, pass: pass, [(2, "b"), (3, "c")], next: nil)
        #expect(try mirror.database.finishPass(pass, of: id, lastPage: 1) == 0)
        #expect(frontPage.created + secondPage.created == 1)
        #expect(try mirror.keys() == [0, 1, 2, 3].map { ItemKey.integer($0) })
    }

    @Test func aKeyOnTwoPagesOfOnePassIsRefusedAndNothingIsWritten() throws {
        let mirror = try Mirror()
        try mirror.write(0, pass: 1, [(1, "a"), (2, "b")])
        #expect(throws: DuplicateKey(key: "2", pageIndex: 0, foundOnPage: 1, written: [])) { try mirror.write(1, pass: 1, [(2, "b"), (3, "c")]) }
        #expect(try mirror.keys() == [.integer(1), .integer(2)])
        #expect(try mirror.database.pages(of: mirror.collection.id)[1] == nil)
    }

    @Test func integerAndStringKeysAreDifferentItems() throws {
        let mirror = try Mirror()
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil,
                                                        items: [(.integer(1), Data(#"{"id":1}"#.utf8)), (.string("1"), Data(#"{"id":"1"}"#.utf8))])],
                                           of: mirror.collection.id, pass: 1, now: Date())
        #expect(try mirror.keys() == [.integer(1), .string("1")])
    }

    @Test func stringKeysThatDifferAfterANULCharacterAreDifferentItems() throws {
        let mirror = try Mirror()
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil,
                                                        items: [(.string("a\u{0}x"), Data(#"{"id":"a\u0000x"}"#.utf8)),
                                                                (.string("a\u{0}y"), Data(#"{"id":"a\u0000y"}"#.utf8))])],
                                           of: mirror.collection.id, pass: 1, now: Date())
        #expect(try mirror.keys() == [.string("a\u{0}x"), .string("a\u{0}y")])
    }

    @Test func anUnfinishedPassResumesAfterItsLastPage() throws {
        let mirror = try Mirror()
        let id = mirror.collection.id
        try mirror.database.setPlan(#"{"style": "link"}"#, url: "http://o.test/posts", of: id)
        let pass = try mirror.database.startPass(of: id, restart: false)
        try mirror.write(0, pass: pass.pass, [(1, "a")], next: "http://o.test/posts?page=2")
        try mirror.write(1, pass: pass.pass, [(2, "b")], next: "http://o.test/posts?page=3")
        let resumed = try mirror.database.startPass(of: id, restart: false)
        #expect(resumed == PassPosition(pass: pass.pass, isResumed: true, nextPageIndex: 2, nextURL: "http://o.test/posts?page=3",
                                        fetchedURLs: ["http://o.test/posts?page=1", "http://o.test/posts?page=2"]))
        #expect(try mirror.database.startPass(of: id, restart: true).pass == pass.pass + 1)
    }

    @Test func filtersCompareMembersAsText() throws {
        let mirror = try Mirror()
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: [
            (.integer(1), Data(#"{"id":1,"n":5,"ok":true,"t":"Swift"}"#.utf8)), (.integer(2), Data(#"{"id":2,"n":"5","ok":false,"t":"Rust"}"#.utf8)),
        ])], of: mirror.collection.id, pass: 1, now: Date())
        func matching(_ text: String) throws -> [ItemKey] {
            var keys: [ItemKey] = []
            try mirror.database.forEachItem(in: mirror.collection.id, filters: [ItemFilter(parsing: text)!]) { keys.append($0.key) }
            return keys
        }
        #expect(try matching("n=5") == [.integer(1), .integer(2)])
        #expect(try matching("ok=true") == [.integer(1)])
        #expect(try matching("t~swi") == [.integer(1)])
        #expect(try matching("t!=Swift") == [.integer(2)])
        #expect(try matching("missing=x").isEmpty)
    }

    @Test func collectionsGetUniqueNamesAndDeleteWithTheirItems() throws {
        let mirror = try Mirror()
        let other = try mirror.database.createCollection(preferredName: "posts", url: "http://other.test/posts")
        #expect(other.name == "posts-2")
        try mirror.write(0, pass: 1, [(1, "a")])
        #expect(try mirror.database.deleteCollection(mirror.collection.id) == 1)
        #expect(try mirror.database.collections().map(\.name) == ["posts-2"])
    }

    @Test func severalOpenersOfOneNewFileAllSucceed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask { _ = try SQLiteMirror(path: path).createCollection(preferredName: "c\(index)", url: "http://o.test/\(index)") }
            }
            try await group.waitForAll()
        }
        #expect(try SQLiteMirror(path: path).collections().count == 6)
    }
}
