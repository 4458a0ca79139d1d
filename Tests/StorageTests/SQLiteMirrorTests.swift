import Foundation
import GRDB
import JSON
import MirrorStore
@testable import Storage
import Testing

/// An item database in a temporary directory with one collection.
struct Mirror {
    let directory: TemporaryDirectory
    let database: SQLiteMirror
    let collection: CollectionRecord

    init() throws {
        directory = try TemporaryDirectory()
        database = try SQLiteMirror(path: directory.file("data.sqlite"))
        collection = try database.createCollection(preferredName: "posts", url: "http://o.test/posts")
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
