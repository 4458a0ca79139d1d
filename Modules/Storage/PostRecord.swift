import Foundation
import GRDB
import Models

/// One row of the item database's `post` table: a synced ``Post``.
struct PostRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "post"

    var id: Int
    var title: String
    var body: String
    var author: String
    var updatedAt: Double
    /// The collection the post was last synced from.
    var resource: String
    /// The sync run that last saw the post; a finished run deletes the posts it did not see.
    var syncRun: String

    init(_ post: Post, resource: String, syncRun: String) {
        id = post.id
        title = post.title
        body = post.body
        author = post.author
        updatedAt = post.updatedAt.timeIntervalSince1970
        self.resource = resource
        self.syncRun = syncRun
    }

    var post: Post {
        Post(id: id, title: title, body: body, author: author, updatedAt: Date(timeIntervalSince1970: updatedAt))
    }

    static let all = PostRecord.order(Column("id"))
}

/// One row of `syncedPage`: the cursor state of one page of one resource.
public struct SyncedPage: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
    public static let databaseTableName = "syncedPage"

    /// The collection URL without pagination parameters.
    public var resource: String
    /// 0 for the first page.
    public var pageIndex: Int
    /// The cursor that asked for this page (`nil` for the first page).
    public var cursor: String?
    /// The cursor the page pointed to, `"0"` at the end.
    public var nextCursor: String
    public var itemCount: Int
    public var syncedAt: Double

    public init(resource: String, pageIndex: Int, cursor: String?, nextCursor: String, itemCount: Int, syncedAt: Date) {
        self.resource = resource
        self.pageIndex = pageIndex
        self.cursor = cursor
        self.nextCursor = nextCursor
        self.itemCount = itemCount
        self.syncedAt = syncedAt.timeIntervalSince1970
    }
}

/// The migrations of the item database, append-only.
enum ItemSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-posts-and-pages") { db in
            try db.execute(sql: """
                CREATE TABLE post (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    body TEXT NOT NULL,
                    author TEXT NOT NULL,
                    updatedAt DOUBLE NOT NULL
                );
                CREATE TABLE syncedPage (
                    resource TEXT NOT NULL,
                    pageIndex INTEGER NOT NULL,
                    cursor TEXT,
                    nextCursor TEXT NOT NULL,
                    itemCount INTEGER NOT NULL,
                    syncedAt DOUBLE NOT NULL,
                    PRIMARY KEY (resource, pageIndex)
                );
                """)
        }
        migrator.registerMigration("v2-post-sync-run") { db in
            try db.execute(sql: """
                ALTER TABLE post ADD COLUMN resource TEXT NOT NULL DEFAULT '';
                ALTER TABLE post ADD COLUMN syncRun TEXT NOT NULL DEFAULT '';
                CREATE INDEX postByResource ON post(resource, syncRun);
                """)
        }
        return migrator
    }
}
