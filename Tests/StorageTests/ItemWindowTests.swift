import Foundation
import JSON
import MirrorStore
@testable import Storage
import Testing

@Suite("Item database: search in the SQLite file")
struct ItemWindowTests {
    let fields = RowFields(title: [JSONPath(["title"]), JSONPath(["name"])], subtitle: [JSONPath(["author"])])

    /// A collection of `count` items over pages of ten: titles "Post N", every third by 민지.
    func mirror(_ count: Int) throws -> Mirror {
        let mirror = try Mirror()
        let pages = stride(from: 0, to: count, by: 10).map { start in
            PageContent(index: start / 10, url: "u\(start)", nextURL: nil, validator: nil, items: (start..<min(start + 10, count)).map { n in
                (key: ItemKey.integer(n + 1), json: Data(#"{"id":\#(n + 1),"title":"Post \#(n + 1)","author":"\#(n % 3 == 0 ? "민지" : "Kim")","body":"word\#(n) caching"}"#.utf8))
            })
        }
        _ = try mirror.database.writePagesNow(pages, of: mirror.collection.id, pass: 1, now: Date())
        return mirror
    }

    /// The keys of every item matching `query`, walking the matches from the first until the
    /// search wraps around to it.
    func matchingKeys(_ query: String, in id: Int64, of store: SQLiteMirror) async throws -> [ItemKey] {
        guard let first = try await store.firstMatch(of: query, in: id, after: nil, fields: fields) else { return [] }
        var keys = [first.key]
        var at = first.at
        while let next = try await store.firstMatch(of: query, in: id, after: at, fields: fields), next.at != first.at {
            keys.append(next.key)
            at = next.at
        }
        return keys
    }

    /// A title or subtitle holding U+0000 is read whole: SQLite's json_extract ends a string
    /// there, and a server could hide the rest of a title from the reader's list.
    @Test func aTitleHoldingU0000IsReadWhole() throws {
        let mirror = try Mirror()
        let items: [(key: ItemKey, json: Data)] = [
            (.integer(1), Data(#"{"id":1,"title":"before\u0000after","author":"a\u0000b"}"#.utf8)),
            (.integer(2), Data(#"{"id":2,"title":{"x":1},"name":"n\u0000m","author":7,"body":"\u0000"}"#.utf8)),
        ]
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "u0", nextURL: nil, validator: nil, items: items)],
                                              of: mirror.collection.id, pass: 1, now: Date())
        let rows = try mirror.database.rows(in: mirror.collection.id, from: nil, limit: 2, fields: fields)
        #expect(rows.map(\.title) == ["before\u{0}after", "n\u{0}m"])
        #expect(rows.map(\.subtitle) == ["a\u{0}b", "7"])
    }

    /// A writable mirror searches its full-text index (MirrorStoreTests); a read-only one (a
    /// read-only directory) searches the items' text: the same matches.
    @Test func aReadOnlyFileSearchesTheItemsText() async throws {
        let mirror = try mirror(30)
        let id = mirror.collection.id
        let store = try SQLiteMirror(path: mirror.database.path, readOnly: true)
        let first = try await store.firstMatch(of: "민지", in: id, after: nil, fields: fields)
        #expect(first?.key == .integer(1))
        let next = try await store.firstMatch(of: "민지", in: id, after: first?.at, fields: fields)
        #expect(next?.key == .integer(4))
        let wrapped = try await store.firstMatch(of: "민지", in: id, after: ItemPosition(pageIndex: 2, position: 9), fields: fields)
        #expect(wrapped?.key == .integer(1))
        let previous = try await store.firstMatch(of: "민지", in: id, after: next?.at, backward: true, fields: fields)
        #expect(previous?.key == .integer(1))
        let keys = try await matchingKeys("민지", in: id, of: store)
        let wrappedBack = try await store.firstMatch(of: "민지", in: id, after: first?.at, backward: true, fields: fields)
        #expect(wrappedBack?.key == keys.last)
        #expect(keys.count == 10)
        #expect(try await matchingKeys("nothing-like-it", in: id, of: store).isEmpty)
        // It keeps no index: a reader runs each of its searches in the background.
        #expect(try !store.searchIndexIsCurrent(of: id))
        #expect(try await !store.updateSearchIndex(of: id), "nothing indexed, nothing written")
    }

    /// Without the index, the items are read a batch at a time from the position, across
    /// batches and around the end; each word is looked for in the string values only (not the
    /// keys), ASCII letters in either case, and an escape in the JSON hides no word.
    @Test func withoutTheIndexTheItemsAreReadInBatchesAndOnlyTheirValues() async throws {
        let mirror = try mirror(SQLiteMirror.searchScanBatch * 2 + 25)
        let (store, id) = (mirror.database, mirror.collection.id)
        let far = try await store.firstMatchWithoutIndex(of: "POST 10024", in: id, after: nil, fields: fields)
        #expect(far?.key == .integer(10024))
        let wrapped = try await store.firstMatchWithoutIndex(of: "post 3", in: id, after: far?.at, fields: fields)
        #expect(wrapped?.key == .integer(3))
        let back = try await store.firstMatchWithoutIndex(of: "post 10025", in: id, after: ItemPosition(pageIndex: 0, position: 0),
                                                          backward: true, fields: fields)
        #expect(back?.key == .integer(10025))
        #expect(try await store.firstMatchWithoutIndex(of: "author", in: id, after: nil, fields: fields) == nil, "a key is no text")
        #expect(try !store.searchIndexIsCurrent(of: id))

        let escaped = try Mirror()
        let items = [(key: ItemKey.integer(1), json: Data(#"{"id":1,"title":"plain"}"#.utf8)),
                     (key: ItemKey.integer(2), json: Data(#"{"id":2,"title":"caf\u00e9 \"quoted\" a\/b"}"#.utf8))]
        _ = try escaped.database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: items)],
                                               of: escaped.collection.id, pass: 1, now: Date())
        for word in ["café", #""quoted""#, "a/b"] {
            let match = try await escaped.database.firstMatchWithoutIndex(of: word, in: escaped.collection.id, after: nil, fields: fields)
            #expect(match?.key == .integer(2), "\(word)")
        }
    }

    /// Quitting the reader cancels its search without the index between two batches.
    @Test func aCancelledSearchWithoutTheIndexStops() async throws {
        let mirror = try mirror(30)
        let (database, id, fields) = (mirror.database, mirror.collection.id, fields)
        let cancelled = await Task { () async -> (any Error)? in
            withUnsafeCurrentTask { $0?.cancel() }
            do { _ = try await database.firstMatchWithoutIndex(of: "nothing-like-it", in: id, after: nil, fields: fields) } catch { return error }
            return nil
        }.value
        #expect(cancelled is CancellationError)
    }

    /// The index is built a batch of row ids at a time over the collection's own ids: items
    /// written after another collection's, and more than a batch of them, are all found.
    @Test func theIndexIsBuiltInBatchesOverTheCollectionsOwnItems() async throws {
        let mirror = try mirror(30)
        let other = try mirror.database.createCollection(preferredName: "later", url: "http://o.test/later", now: Date())
        let count = SQLiteMirror.searchIndexBatch + 5
        let items = (1...count).map { n in (key: ItemKey.integer(n), json: Data(#"{"id":\#(n),"title":"Later \#(n) zebra"}"#.utf8)) }
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "later", nextURL: nil, validator: nil, items: items)],
                                              of: other.id, pass: 1, now: Date())
        #expect(try await mirror.database.updateSearchIndex(of: other.id))
        let found = try mirror.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM itemText WHERE collectionID = ? AND itemText MATCH 'zebra'", arguments: [other.id])
        }
        #expect(found == count)
        #expect(try await mirror.database.firstMatch(of: "zebra", in: mirror.collection.id, after: nil, fields: fields) == nil)
        #expect(try await mirror.database.firstMatch(of: "Later \(count)", in: other.id, after: nil, fields: fields)?.key == .integer(count))
    }

    /// Quitting the reader cancels its background update of the index: it stops between two
    /// batches and says it is not current; the next update drops what a stopped one had
    /// indexed and indexes every item once.
    @Test func aCancelledUpdateStopsAndTheNextOneGoesOn() async throws {
        let mirror = try mirror(30)
        let (database, id) = (mirror.database, mirror.collection.id)
        let cancelled = await Task { () async -> (any Error)? in
            withUnsafeCurrentTask { $0?.cancel() }
            do { _ = try await database.updateSearchIndex(of: id) } catch { return error }
            return nil
        }.value
        #expect(cancelled is CancellationError)
        #expect(try !mirror.database.searchIndexIsCurrent(of: id))
        // What a run stopped after its first batch leaves: some items indexed, no state.
        try await mirror.database.writerPool().write { db in
            try db.execute(sql: "INSERT INTO itemText (rowid, text, collectionID) SELECT id, 'Post', collectionID FROM item WHERE id <= 5")
        }
        #expect(try await mirror.database.updateSearchIndex(of: id))
        let entries = try mirror.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM itemText") }
        #expect(entries == 30)
        #expect(try mirror.database.searchIndexIsCurrent(of: id))
        #expect(try await matchingKeys("민지", in: id, of: mirror.database).count == 10)
    }

    @Test func theSearchIndexFollowsChangesAndIgnoresQueryOperators() async throws {
        let mirror = try mirror(10)
        let id = mirror.collection.id
        try await mirror.database.updateSearchIndex(of: id)
        #expect(try await !mirror.database.updateSearchIndex(of: id), "nothing changed, nothing done")
        _ = try mirror.database.writePagesNow([PageContent(index: 0, url: "u0", nextURL: nil, validator: nil, items: [
            (.integer(1), Data(#"{"id":1,"title":"Fresh title about SQLite"}"#.utf8)),
        ])], of: id, pass: 2, now: Date())
        _ = try mirror.database.finishPass(2, of: id, lastPage: 0)
        #expect(try await mirror.database.updateSearchIndex(of: id))
        #expect(try await matchingKeys("sqli", in: id, of: mirror.database) == [.integer(1)], "the last word is a prefix")
        #expect(try await matchingKeys("caching", in: id, of: mirror.database).isEmpty, "the other items are gone")
        #expect(try await matchingKeys(#"title" OR "x"#, in: id, of: mirror.database).isEmpty)
    }
}
