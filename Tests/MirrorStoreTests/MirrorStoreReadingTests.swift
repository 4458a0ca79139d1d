import Foundation
import JSON
import MirrorStore
import StoreTestSupport
import Testing

/// Windows of rows, search, live changes and locks: what a reader and concurrent syncs rely
/// on, run against both stores.
@Suite("Mirror store: windows, search, changes and locks in SQLite and PostgreSQL")
struct MirrorStoreReadingTests {
    let fields = RowFields(title: [JSONPath(["title"]), JSONPath(["name"])], subtitle: [JSONPath(["author"])])

    /// A collection of `count` items over pages of ten: titles "Post N", every third by 민지.
    func mirror(_ kind: StoreKind, _ count: Int) async throws -> StoreUnderTest {
        let mirror = try await StoreUnderTest(kind)
        let pages = stride(from: 0, to: count, by: 10).map { start in
            PageContent(index: start / 10, url: "u\(start)", nextURL: nil, validator: nil, items: (start..<min(start + 10, count)).map { n in
                (key: ItemKey.integer(n + 1),
                 json: Data(#"{"id":\#(n + 1),"title":"Post \#(n + 1)","author":"\#(n % 3 == 0 ? "민지" : "Kim")","body":"word\#(n) caching"}"#.utf8))
            })
        }
        _ = try await mirror.store.writePages(pages, of: mirror.collection.id, pass: 1, now: Date())
        return mirror
    }

    @Test(arguments: StoreKind.allCases)
    func windowsReadForwardBackwardAndByOffset(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 35)
        let (store, id) = (mirror.store, mirror.collection.id)
        let first = try await store.rows(in: id, from: nil, limit: 3, fields: fields)
        #expect(first.map(\.title) == ["Post 1", "Post 2", "Post 3"])
        #expect(first.map(\.subtitle) == ["민지", "Kim", "Kim"])
        let after = try await store.rows(in: id, from: ItemPosition(pageIndex: 0, position: 9), limit: 3, fields: fields)
        #expect(after.map(\.key) == [.integer(10), .integer(11), .integer(12)])
        let before = try await store.rows(in: id, before: ItemPosition(pageIndex: 1, position: 2), limit: 4, fields: fields)
        #expect(before.map(\.key) == [9, 10, 11, 12].map { ItemKey.integer($0) })
        let last = try await store.rows(in: id, atOffset: 33, limit: 5, fields: fields)
        #expect(last.map(\.key) == [.integer(34), .integer(35)])
        #expect(try await store.ordinal(of: ItemPosition(pageIndex: 2, position: 4), in: id) == 24)
        #expect(try await store.item(id: first[1].id)?.json.contains("Post 2") == true)
        #expect(try await store.firstItemJSON(in: id)?.contains("Post 1") == true)
        #expect(try await store.itemCount(in: id) == 35)
    }

    @Test(arguments: StoreKind.allCases)
    func titlesFallBackAlongThePathsAndSkipObjects(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        try await mirror.write([
            (.integer(1), #"{"id":1,"name":"named"}"#),
            (.integer(2), #"{"id":2,"title":{"nested":true},"name":"fallback"}"#),
            (.integer(3), #"{"id":3,"title":7}"#),
        ])
        let rows = try await mirror.store.rows(in: mirror.collection.id, from: nil, limit: 5, fields: fields)
        #expect(rows.map(\.title) == ["named", "fallback", "7"])
    }

    /// The keys of every item matching `query`, walking the matches from the first until the
    /// search wraps around to it.
    func matchingKeys(_ query: String, in mirror: StoreUnderTest) async throws -> [ItemKey] {
        let (store, id) = (mirror.store, mirror.collection.id)
        guard let first = try await store.firstMatch(of: query, in: id, after: nil, backward: false, fields: fields) else { return [] }
        var keys = [first.key]
        var at = first.at
        while let next = try await store.firstMatch(of: query, in: id, after: at, backward: false, fields: fields), next.at != first.at {
            keys.append(next.key)
            at = next.at
        }
        return keys
    }

    /// A screen asks whether a search would answer at once, and brings the index up to date in
    /// the background when not (the reader's first search of a collection).
    @Test(arguments: StoreKind.allCases)
    func theSearchIndexSaysWhetherItIsCurrent(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 30)
        let (store, id) = (mirror.store, mirror.collection.id)
        #expect(try await !store.searchIndexIsCurrent(of: id))
        #expect(try await store.updateSearchIndex(of: id))
        #expect(try await store.searchIndexIsCurrent(of: id))
        #expect(try await !store.updateSearchIndex(of: id), "nothing to do")
        try await mirror.write(9, pass: 1, [(99, "later")])
        #expect(try await !store.searchIndexIsCurrent(of: id), "a page written since")
    }

    @Test(arguments: StoreKind.allCases)
    func searchFindsWordsForwardAndBackwardAndWraps(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 30)
        let (store, id) = (mirror.store, mirror.collection.id)
        let first = try await store.firstMatch(of: "민지", in: id, after: nil, backward: false, fields: fields)
        #expect(first?.key == .integer(1))
        let next = try await store.firstMatch(of: "민지", in: id, after: first?.at, backward: false, fields: fields)
        #expect(next?.key == .integer(4))
        let wrapped = try await store.firstMatch(of: "민지", in: id, after: ItemPosition(pageIndex: 2, position: 9), backward: false, fields: fields)
        #expect(wrapped?.key == .integer(1))
        let previous = try await store.firstMatch(of: "민지", in: id, after: next?.at, backward: true, fields: fields)
        #expect(previous?.key == .integer(1))
        #expect(try await matchingKeys("민지", in: mirror).count == 10)
        #expect(try await matchingKeys("post 7", in: mirror) == [.integer(7)], "every word, in any member")
        #expect(try await matchingKeys("cach", in: mirror).count == 30, "the last word is a prefix")
        #expect(try await matchingKeys("nothing-like-it", in: mirror).isEmpty)
        #expect(try await matchingKeys(#"title" OR "x"#, in: mirror).isEmpty, "no operator of the query is read as one")
        #expect(try await matchingKeys("it's & | ! : *", in: mirror).isEmpty)
    }

    /// The reader's first search does not wait for the index: without it, the same items are
    /// found for words as they stand in the items, in the same order and wrapping the same way,
    /// and the index is left as it was.
    @Test(arguments: StoreKind.allCases)
    func searchWithoutTheIndexFindsTheSameItems(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 30)
        let (store, id) = (mirror.store, mirror.collection.id)
        let queries = ["민지", "kim", "caching", "nothing-like-it"]
        var found: [String: [ItemKey]] = [:]
        for query in queries {
            var keys: [ItemKey] = []
            var at: ItemPosition?
            while let next = try await store.firstMatchWithoutIndex(of: query, in: id, after: at, backward: false, fields: fields),
                  keys.first != next.key {
                keys.append(next.key)
                at = next.at
            }
            found[query] = keys
        }
        #expect(try await !store.searchIndexIsCurrent(of: id), "the index is not built")
        for query in queries { #expect(try await found[query] == matchingKeys(query, in: mirror), "\(query)") }
        #expect(found["민지"]?.count == 10)
        let back = try await store.firstMatchWithoutIndex(of: "민지", in: id, after: nil, backward: true, fields: fields)
        #expect(back?.key == .integer(28))
        #expect(try await store.firstMatchWithoutIndex(of: "post 1", in: id, after: nil, backward: false, fields: fields)?.title == "Post 1")
    }

    @Test(arguments: StoreKind.allCases)
    func searchFollowsChanges(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 10)
        #expect(try await matchingKeys("caching", in: mirror).count == 10)
        try await mirror.write([(.integer(1), #"{"id":1,"title":"Fresh title about SQLite"}"#)], pass: 2)
        _ = try await mirror.finish(2, lastPage: 0)
        #expect(try await matchingKeys("sqli", in: mirror) == [.integer(1)])
        #expect(try await matchingKeys("caching", in: mirror).isEmpty, "the other items are gone")
    }

    /// A screen learns that someone else wrote, without reading anything itself.
    @Test(arguments: StoreKind.allCases)
    func aWatchSeesWritesOfAnotherConnection(_ kind: StoreKind) async throws {
        let mirror = try await mirror(kind, 5)
        let watch = try await mirror.store.watchChanges()
        #expect(try !watch.hasChanged())
        let other = try await mirror.reopen()
        _ = try await other.createCollection(preferredName: "more", url: "http://o.test/more", now: Date())
        await other.close()
        #expect(try await eventually { try watch.hasChanged() })
        #expect(try !watch.hasChanged(), "said once")
    }

    /// One sync of a collection at a time: a second taker waits, is told who holds it, and gets
    /// it once the first lets go; another collection's lock is free meanwhile.
    @Test(arguments: StoreKind.allCases)
    func aCollectionLockWaitsForItsHolderAndOnlyForIt(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let other = try await mirror.reopen()
        let held = try await mirror.store.lock(collection: "http://o.test/posts", onWait: { _ in Issue.record("the first taker waits") })
        let free = try await other.lock(collection: "http://o.test/users", onWait: { _ in Issue.record("another collection waits") })
        await free.release()
        let (stream, waited) = AsyncStream<String?>.makeStream()
        let second = Task {
            try await other.lock(collection: "http://o.test/posts", onWait: { holder in waited.yield(holder) })
        }
        var heard = stream.makeAsyncIterator()
        let holder = await heard.next()
        #expect(holder??.contains("process \(getpid())") == true)
        await held.release()
        try await second.value.release()
        await other.close()
    }

    /// Waits for `condition` to hold (an asynchronous notification to arrive), for at most 10 s.
    private func eventually(_ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
