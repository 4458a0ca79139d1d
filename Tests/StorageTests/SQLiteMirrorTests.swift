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

/// What only the SQLite file does; what every store does is in MirrorStoreTests, run against
/// both stores.
@Suite("Item database: the SQLite file")
struct SQLiteMirrorTests {
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
