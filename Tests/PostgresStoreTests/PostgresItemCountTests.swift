import Foundation
import JSON
import MirrorStore
import PostgresStore
import StoreTestSupport
import Testing

/// As the SQLite store, the PostgreSQL store keeps the item count a pass's end found
/// (`item_count`): a warm sync's summary and the reader's first frame read it instead of
/// counting every item, and it answers while the collection is as that end left it.
@Suite("Mirror store: PostgreSQL's kept item count")
struct PostgresItemCountTests {
    private func page(_ index: Int, keys: ClosedRange<Int>?) -> PageContent {
        PageContent(index: index, url: "http://o.test/posts?page=\(index)", nextURL: nil, validator: nil,
                    items: keys.map { $0.map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) } })
    }

    @Test func aPassEndKeepsTheCountAndAnyLaterPageCountsAgain() async throws {
        let mirror = try await StoreUnderTest(.postgresql)
        let (store, id) = (mirror.store, mirror.collection.id)
        let database = try #require(store as? PostgresMirror).address.database
        func sql(_ statement: String) throws -> String { try ThrowawayPostgres.shared.get().sql(statement, database: database) }

        let first = try await mirror.startPass().pass
        _ = try await store.writePages([page(0, keys: 1...50), page(1, keys: 51...80)], of: id, pass: first, now: Date())
        #expect(try await store.itemCount(in: id) == 80, "mid-pass: counted")
        #expect(try await mirror.finish(first, lastPage: 1) == 0)
        #expect(try sql("SELECT count FROM fresh.item_count") == "80\n")

        // The kept count is what answers: altered by hand, the answer follows it.
        _ = try sql("UPDATE fresh.item_count SET count = 7")
        #expect(try await store.itemCount(in: id) == 7)
        // A page written since takes a change number: counted again.
        _ = try await store.writePages([page(2, keys: 81...85)], of: id, pass: first, now: Date())
        #expect(try await store.itemCount(in: id) == 85)

        // A pass that ends on page 0 removes 35 items and keeps the new count.
        let second = try await mirror.startPass().pass
        _ = try await store.writePages([page(0, keys: 1...50)], of: id, pass: second, now: Date())
        #expect(try await mirror.finish(second, lastPage: 0) == 35)
        #expect(try sql("SELECT count FROM fresh.item_count") == "50\n")

        // A warm pass (its page current) that removes nothing does not count again.
        _ = try sql("UPDATE fresh.item_count SET count = 9")
        let warm = try await mirror.startPass().pass
        _ = try await store.writePages([page(0, keys: nil)], of: id, pass: warm, now: Date())
        #expect(try await mirror.finish(warm, lastPage: 0) == 0)
        #expect(try await store.itemCount(in: id) == 9)

        // A deleted collection's count goes with it.
        _ = try await store.deleteCollection(id)
        #expect(try sql("SELECT count(*) FROM fresh.item_count") == "0\n")
    }
}
