import Foundation
import JSON
import MirrorStore
@testable import PostgresStore
import StoreTestSupport
import Testing

/// The PostgreSQL store's bulk load: a pass that starts on an empty collection copies its pages
/// in (`COPY`), and what it stores is what `write_pages` would have stored, row for row.
@Suite("Mirror store: PostgreSQL bulk load")
struct BulkLoadTests {
    /// Items whose text COPY treats specially, or JSONB cannot hold, keyed by numbers and by
    /// strings of any byte.
    static let awkwardItems: [(key: ItemKey, json: String)] = [
        (.integer(1), #"{"id":1,"title":"back\\slash, \"quoted\", tab\t and line\n escaped"}"#),
        (.string("tab\tand\\backslash"), #"{"id":"tab\tand\\backslash","title":"서울의 아침 🇰🇷"}"#),
        (.integer(3), #"{"id":3,"title":"a \u0000 JSONB cannot hold"}"#),
        (.integer(4), "{\"id\": 4,\n\t\"title\": \"sent with whitespace\"\r\n}"),
        (.integer(5), #"{"id":5,"path":"C:\\\\Users\\\\kim","end":"\\"}"#),
    ]

    static func pages(_ contents: [[(key: ItemKey, json: String)]], repeatsAllowed: Bool = false) -> [PageContent] {
        contents.enumerated().map { index, items in
            PageContent(index: index, url: "http://o.test/p?page=\(index + 1)", nextURL: index == contents.count - 1 ? nil : "next",
                        validator: "v\(index)", items: items.map { ($0.key, Data($0.json.utf8)) }, statedTotal: 6,
                        repeatsAllowed: repeatsAllowed,
                        envelope: index == 0 ? PageEnvelope(fields: [.init(name: "ETag", value: "\"e\"")], before: "{\"data\":", after: "}") : nil)
        }
    }

    static func bulkLoaded(_ mirror: StoreUnderTest) throws -> Int {
        try #require(mirror.store as? PostgresMirror).bulkLoadedPages.withLock { $0 }
    }

    /// Every column the two paths write, as the server reads them back.
    static func rows(of mirror: StoreUnderTest) throws -> String {
        let database = try #require(mirror.store as? PostgresMirror).address.database
        let cluster = try ThrowawayPostgres.shared.get()
        return try [
            "SELECT encode(key, 'hex'), page_index, position, json::text, exact_text, pass, created_sequence, changed_sequence FROM fresh.item ORDER BY key",
            "SELECT page_index, url, next_url, item_count, validator, pass, content_pass, stated_total FROM fresh.page ORDER BY page_index",
            "SELECT page_index, envelope FROM fresh.page_envelope ORDER BY page_index",
            "SELECT change_sequence FROM fresh.collection",
        ].map { try cluster.sql($0, database: database) }.joined(separator: "\n--\n")
    }

    @Test func aFirstPassIntoAnEmptyCollectionIsCopiedAsTheUpsertWouldWriteIt() async throws {
        let pages = Self.pages([Array(Self.awkwardItems[..<2]), [], Array(Self.awkwardItems[2...])])
        let copied = try await StoreUnderTest(.postgresql)
        let pass = try await copied.startPass().pass
        let writes = try await copied.store.writePages(pages, of: copied.collection.id, pass: pass, now: Date(timeIntervalSince1970: 1))
        #expect(writes == [PageWrite(created: 2), PageWrite(), PageWrite(created: 3)])
        #expect(try Self.bulkLoaded(copied) == 3)

        // The same pages through `write_pages`: a store whose pass did not start on an empty collection.
        let upserted = try await StoreUnderTest(.postgresql)
        _ = try await upserted.store.writePages(pages, of: upserted.collection.id, pass: pass, now: Date(timeIntervalSince1970: 1))
        #expect(try Self.bulkLoaded(upserted) == 0)
        #expect(try Self.rows(of: copied) == Self.rows(of: upserted))

        let stored = try await copied.store.itemJSON(onPage: 2, of: copied.collection.id)
        #expect(stored.first == #"{"id":3,"title":"a \u0000 JSONB cannot hold"}"#, "the exact text is kept beside the JSONB")
        #expect(try await copied.finish(pass, lastPage: 2) == 0)
        #expect(try await copied.keys().count == 5)
    }

    @Test func aKeyListedTwiceIsRefusedAsTheUpsertRefusesItAndLaterPagesAreStillCopied() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        let pass = try await mirror.startPass().pass
        let twice = Self.pages([[(.integer(1), "{}")], [(.integer(2), "{}")], [(.integer(1), #"{"again":true}"#)], [(.integer(4), "{}")]])
        await #expect(throws: DuplicateKey(key: "1", pageIndex: 0, foundOnPage: 2, written: [PageWrite(created: 1), PageWrite(created: 1)])) {
            _ = try await mirror.store.writePages(twice, of: mirror.collection.id, pass: pass, now: Date())
        }
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
        #expect(try Self.bulkLoaded(mirror) == 2, "the batch's copy was refused and rolled back; write_pages found the refused page, and the pages before it were copied alone")

        let later = PageContent(index: 2, url: "u3", nextURL: nil, validator: nil, items: [(.integer(3), Data("{}".utf8))])
        #expect(try await mirror.store.writePages([later], of: mirror.collection.id, pass: pass, now: Date()) == [PageWrite(created: 1)])
        #expect(try Self.bulkLoaded(mirror) == 3)
    }

    @Test func aRepeatOfAMovingListingStaysWhereItWasFirstListed() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        let pass = try await mirror.startPass().pass
        let moved = Self.pages([[(.integer(1), "{}"), (.integer(2), "{}")], [(.integer(2), "{}"), (.integer(3), "{}")]], repeatsAllowed: true)
        let writes = try await mirror.store.writePages(moved, of: mirror.collection.id, pass: pass, now: Date())
        #expect(writes == [PageWrite(created: 2), PageWrite(created: 1, repeated: 1)])
        #expect(try await mirror.storedItems().map(\.pageIndex) == [0, 0, 1])
    }

    /// Its end looks for unlisted items only past the last page (by the index): there they are found.
    @Test func theEndOfACopiedPassRemovesTheItemsOfPagesPastItsLast() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        let pass = try await mirror.startPass().pass
        _ = try await mirror.store.writePages(Self.pages([[(.integer(1), "{}")], [(.integer(2), "{}")], [(.integer(3), "{}"), (.integer(4), "{}")]]),
                                              of: mirror.collection.id, pass: pass, now: Date())
        #expect(try await mirror.finish(pass, lastPage: 1) == 2)
        #expect(try await mirror.keys() == [.integer(1), .integer(2)])
    }

    @Test func aPassThatStartsWithItemsStoredIsUpserted() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        let first = try await mirror.startPass().pass
        try await mirror.write(0, pass: first, [(1, "a")], next: nil)
        #expect(try await mirror.finish(first, lastPage: 0) == 0)
        #expect(try Self.bulkLoaded(mirror) == 1)

        let second = try await mirror.startPass().pass
        #expect(try await mirror.write(0, pass: second, [(1, "a, changed"), (2, "b")], next: nil) == PageWrite(created: 1, changed: 1))
        #expect(try Self.bulkLoaded(mirror) == 1, "the second pass found an item stored: upserted")
    }
}
