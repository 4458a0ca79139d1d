import Foundation
import GRDB
import JSON
import MirrorStore
@testable import Storage
import Testing

/// Opening the mirror to read it waits for no other process: a reader's first frame comes while
/// a sync (or anything else) holds the file's write lock. Only the first write opens the writer.
@Suite("Item database: opening to read")
struct MirrorOpeningTests {
    /// A mirror of one collection of 50 items, closed cleanly (its log left empty, which makes a
    /// writing pool's open write a transaction of its own).
    private func closedMirror(in directory: TemporaryDirectory) async throws -> (path: String, collectionID: Int64) {
        let path = directory.file("data.sqlite")
        let database = try SQLiteMirror(path: path)
        let collection = try database.createCollection(preferredName: "posts", url: "http://o.test/posts")
        let items = (1...50).map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0),"title":"post \#($0)"}"#.utf8)) }
        _ = try database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: items)], of: collection.id, pass: 1)
        await database.close()
        return (path, collection.id)
    }

    /// Another connection in the middle of a write transaction, as a sync between two statements.
    private func holdWriteLock(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: configuration)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE collection SET lastError = lastError")
        }
        return holder
    }

    @Test func openingAndReadingWhileAnotherConnectionWritesWaitsForNothing() async throws {
        let directory = try TemporaryDirectory()
        let (path, collectionID) = try await closedMirror(in: directory)
        let holder = try holdWriteLock(path)
        // Waiting for the lock would end in "database is locked" after the busy timeout.
        let mirror = try SQLiteMirror(path: path)
        #expect(try mirror.collections().map(\.name) == ["posts"])
        #expect(try mirror.itemCount(in: collectionID) == 50)
        let fields = RowFields(title: [JSONPath(["title"])], subtitle: [])
        #expect(try mirror.rows(in: collectionID, from: nil, limit: 3, fields: fields).map(\.title) == ["post 1", "post 2", "post 3"])
        try await holder.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        try holder.close()
        // The first write opens the writer, once the lock is free.
        try await mirror.markShown(collectionID, upTo: 1)
        #expect(try mirror.collections().first?.shownSequence == 1)
        await mirror.close()
        #expect(!VerifiedState.needsCheck(path), "closed sound")
    }

    @Test func aMirrorOnlyReadKeepsItsCleanRecordAndAnUncheckedOneIsNotRecorded() async throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try await closedMirror(in: directory)
        await (try SQLiteMirror(path: path)).close()
        #expect(!VerifiedState.needsCheck(path), "a file checked sound and only read stays sound")
        // A writer that was killed: its next opener must check before writing, and a session that
        // only reads checks nothing, so it must not record the file as sound.
        try FileManager.default.removeItem(atPath: VerifiedState.recordPath(for: path))
        await (try SQLiteMirror(path: path)).close()
        #expect(VerifiedState.needsCheck(path))
    }
}
