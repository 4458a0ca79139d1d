import Foundation
import GRDB
import Models

/// The local item database (`data.sqlite`): the app's source of truth for synced posts and
/// the cursor of every synced page.
///
/// A page's items and its cursor are written in one transaction, so an interrupted sync
/// leaves whole pages only. Unlike the cache, a damaged file is never moved or rebuilt:
/// opening it fails with ``StorageError/corrupted(path:reason:)`` and the file stays as it is.
public final class ItemDatabase: Sendable {
    public let path: String
    private let pool: DatabasePool

    /// Opens (creating if needed) the item database at `path`.
    public init(path: String) throws {
        self.path = path
        pool = try DatabaseFile.openPool(at: path, durability: .full, migrator: ItemSchema.migrator, probeTables: ["post"])
    }

    // MARK: Writing

    /// Upserts the posts of one page and records its cursor, atomically. `syncRun` names the
    /// sync that saw them (see ``finishSync(of:run:lastPageIndex:)``).
    public func savePage(_ posts: [Post], page: SyncedPage, syncRun: String) throws {
        do {
            try pool.write { db in
                for post in posts { try PostRecord(post, resource: page.resource, syncRun: syncRun).save(db, onConflict: .replace) }
                try page.save(db, onConflict: .replace)
            }
        } catch {
            throw DatabaseFile.classify(error, path: path)
        }
    }

    /// Ends a sync that reached the last page: forgets pages beyond `lastPageIndex` and
    /// deletes the posts of `resource` this run did not see (deleted on the server), in one
    /// transaction. Returns how many posts were deleted.
    @discardableResult
    public func finishSync(of resource: String, run: String, lastPageIndex: Int) throws -> Int {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM syncedPage WHERE resource = ? AND pageIndex > ?", arguments: [resource, lastPageIndex])
            try db.execute(sql: "DELETE FROM post WHERE resource = ? AND syncRun != ?", arguments: [resource, run])
            return db.changesCount
        }
    }

    // MARK: Reading

    /// Every stored post, in id order.
    public func posts() throws -> [Post] {
        try pool.read { db in try PostRecord.all.fetchAll(db).map(\.post) }
    }

    /// The stored pages of a resource, in page order.
    public func pages(of resource: String) throws -> [SyncedPage] {
        try pool.read { db in
            try SyncedPage.fetchAll(db, sql: "SELECT * FROM syncedPage WHERE resource = ? ORDER BY pageIndex", arguments: [resource])
        }
    }

    /// Every resource that has synced pages, in name order.
    public func resources() throws -> [String] {
        try pool.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT resource FROM syncedPage ORDER BY resource") }
    }

    /// The posts now and after every change written through this database object (a sync
    /// run in the same process, such as the reader's refresh).
    public func observePosts() -> AsyncValueObservation<[Post]> {
        ValueObservation
            .tracking { db in try PostRecord.all.fetchAll(db).map(\.post) }
            .removeDuplicates()
            .values(in: pool)
    }
}
