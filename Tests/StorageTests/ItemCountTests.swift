import Foundation
import GRDB
import JSON
import MirrorStore
@testable import Storage
import Testing

/// The reader's first frame shows the collection's count. Counting 10,000,000 items took 318 ms,
/// so a pass's end keeps the count, and it answers while the collection is as that end left it.
@Suite("Item database: the kept item count")
struct ItemCountTests {
    private func page(_ index: Int, keys: ClosedRange<Int>) -> PageContent {
        let items = keys.map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) }
        return PageContent(index: index, url: "http://o.test/posts?page=\(index)", nextURL: nil, validator: nil, items: items)
    }

    /// The count kept by the pass's end, `nil` when none is kept.
    private func kept(_ mirror: SQLiteMirror, _ collectionID: Int64) throws -> Int? {
        try mirror.read { db in try Int.fetchOne(db, sql: "SELECT count FROM itemCount WHERE collectionID = ?", arguments: [collectionID]) }
    }

    @Test func aPassEndKeepsTheCountAndAnyLaterChangeCountsAgain() async throws {
        let directory = try TemporaryDirectory()
        let mirror = try SQLiteMirror(path: directory.file("data.sqlite"))
        let collection = try mirror.createCollection(preferredName: "posts", url: "http://o.test/posts")
        let first = try mirror.startPass(of: collection.id, restart: true).pass
        _ = try mirror.writePagesNow([page(0, keys: 1...50), page(1, keys: 51...80)], of: collection.id, pass: first)
        #expect(try mirror.itemCount(in: collection.id) == 80, "mid-pass: counted")
        #expect(try kept(mirror, collection.id) == nil)
        _ = try mirror.finishPass(first, of: collection.id, lastPage: 1)
        #expect(try kept(mirror, collection.id) == 80)

        // The kept count is what answers: altered by hand, the answer follows it.
        try await mirror.writerPool().write { try $0.execute(sql: "UPDATE itemCount SET count = 7") }
        #expect(try mirror.itemCount(in: collection.id) == 7)
        // A sync that starts a pass and fails (the reader's refresh offline) changes no count.
        _ = try mirror.startPass(of: collection.id, restart: true)
        try mirror.abandonPass(of: collection.id)
        #expect(try mirror.itemCount(in: collection.id) == 7)
        // A page written since takes a change number: counted again.
        _ = try mirror.writePagesNow([page(2, keys: 81...85)], of: collection.id, pass: first + 1)
        #expect(try mirror.itemCount(in: collection.id) == 85)

        // The next pass ends on page 0: its end removes pages 1 and 2's items, and keeps 50.
        let second = try mirror.startPass(of: collection.id, restart: true).pass
        _ = try mirror.writePagesNow([page(0, keys: 1...50)], of: collection.id, pass: second)
        #expect(try mirror.finishPass(second, of: collection.id, lastPage: 0) == 35)
        #expect(try mirror.itemCount(in: collection.id) == 50)
        #expect(try kept(mirror, collection.id) == 50)

        // A warm pass (its page current, no items written) that removes nothing keeps the count
        // without counting again: altered by hand, the kept count stays.
        try await mirror.writerPool().write { try $0.execute(sql: "UPDATE itemCount SET count = 9") }
        let warm = try mirror.startPass(of: collection.id, restart: true).pass
        let current = PageContent(index: 0, url: "http://o.test/posts?page=0", nextURL: nil, validator: nil, items: nil)
        _ = try mirror.writePagesNow([current], of: collection.id, pass: warm)
        #expect(try mirror.finishPass(warm, of: collection.id, lastPage: 0) == 0)
        #expect(try kept(mirror, collection.id) == 9)

        // A deleted collection's kept count goes with it, also when a new one takes its id.
        try mirror.deleteCollection(collection.id)
        let again = try mirror.createCollection(preferredName: "posts", url: "http://o.test/posts")
        #expect(try kept(mirror, again.id) == nil)
        #expect(try mirror.itemCount(in: again.id) == 0)
        await mirror.close()
    }
}
