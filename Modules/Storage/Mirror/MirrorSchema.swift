import GRDB
import MirrorStore

/// The migrations of the item database, append-only: a database of any earlier version
/// migrates without losing what it holds.
enum MirrorSchema {
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
        migrator.registerMigration("v3-collections-of-any-json") { db in
            try createCollections(db)
            try copyPosts(db)
            try db.execute(sql: "DROP TABLE post; DROP TABLE syncedPage;")
        }
        migrator.registerMigration("v4-collection-shown") { db in
            try db.execute(sql: "ALTER TABLE collection ADD COLUMN shownSequence INTEGER")
        }
        // A database that ran this migration under its earlier name has `statedTotal` already.
        migrator.registerMigration("v5-page-stated-total", merging: ["v5-page-total-says-more"]) { db, applied in
            guard !applied.contains("v5-page-total-says-more") else { return }
            try db.execute(sql: "ALTER TABLE page ADD COLUMN statedTotal INTEGER")
        }
        migrator.registerMigration("v6-collection-headers") { db in
            try db.execute(sql: "ALTER TABLE collection ADD COLUMN headers TEXT")
        }
        migrator.registerMigration("v7-incremental-syncs") { db in
            try db.execute(sql: """
                ALTER TABLE collection ADD COLUMN since TEXT;
                ALTER TABLE collection ADD COLUMN lastPassKind TEXT;
                """)
        }
        // What a replay serves around a page's items (`PageEnvelope`), and its pages found by URL.
        migrator.registerMigration("v8-page-envelopes") { db in
            try db.execute(sql: """
                CREATE TABLE pageEnvelope (
                    collectionID INTEGER NOT NULL,
                    pageIndex INTEGER NOT NULL,
                    envelope TEXT NOT NULL,
                    PRIMARY KEY (collectionID, pageIndex),
                    FOREIGN KEY (collectionID, pageIndex) REFERENCES page(collectionID, pageIndex) ON DELETE CASCADE
                ) WITHOUT ROWID;
                CREATE INDEX pageByURL ON page(url);
                """)
        }
        // The search index is brought up to date by the change number alone: counting a million
        // items before every search cost more than the search (an item removed since leaves an
        // entry that matches nothing, dropped at the next update).
        migrator.registerMigration("v9-search-state-by-sequence") { db in
            try db.execute(sql: "ALTER TABLE itemTextState DROP COLUMN itemCount")
        }
        // The items' count as the last pass's end left it (``SQLiteMirror/itemCount(in:)``):
        // counting 10,000,000 items took the reader's first frame 318 ms.
        migrator.registerMigration("v10-item-counts") { db in
            try db.execute(sql: """
                CREATE TABLE itemCount (
                    collectionID INTEGER PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
                    count INTEGER NOT NULL,
                    changeSequence INTEGER NOT NULL
                )
                """)
        }
        // A page's validator vouches for the items its write left on it (``PageWriteRule``), kept
        // so by `PageWriter` from now on: the pages of an older file that do not, checked once.
        migrator.registerMigration("v11-validators-follow-moves") { db in
            try db.execute(sql: MirrorSQL.underSQLiteNames(PageWriteRule.pagesNotHoldingWhatTheyWrote))
        }
        // Where an incremental run that has not ended started (``CollectionRecord/incrementalFrom``).
        migrator.registerMigration("v12-incremental-start") { db in
            try db.execute(sql: "ALTER TABLE collection ADD COLUMN incrementalFrom TEXT")
        }
        return migrator
    }

    /// Collections of any JSON API: each with its own pages and items.
    ///
    /// - `item.key` has no type affinity (declared BLOB), so `1` and `'1'` stay different keys.
    /// - `item.pass` is the pass that wrote the item with its page's current content; an item is
    ///   current while its page's `contentPass` equals it. A `pageIndex` below zero marks an item its
    ///   page no longer lists, kept until the pass ends in case a later page lists it: -2 - the
    ///   page's index, the order in which a pass that stops puts them back (-1 in files written before that).
    /// - The sequences number the page writes of a collection, so a reader can tell which items
    ///   are new or changed since it last looked.
    /// - `itemText` is the full-text index of the items' string values, kept by whoever searches
    ///   (``SQLiteMirror/updateSearchIndex(of:)``); `itemTextState` says up to which page write.
    private static func createCollections(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE collection (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                url TEXT NOT NULL,
                plan TEXT,
                createdAt DOUBLE NOT NULL,
                pass INTEGER NOT NULL DEFAULT 0,
                passComplete INTEGER NOT NULL DEFAULT 1,
                passStartedAt DOUBLE,
                lastCompleteAt DOUBLE,
                lastSyncAt DOUBLE,
                lastError TEXT,
                changeSequence INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE page (
                collectionID INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                pageIndex INTEGER NOT NULL,
                url TEXT NOT NULL,
                nextURL TEXT,
                itemCount INTEGER NOT NULL,
                validator TEXT,
                pass INTEGER NOT NULL,
                contentPass INTEGER NOT NULL,
                fetchedAt DOUBLE NOT NULL,
                PRIMARY KEY (collectionID, pageIndex)
            ) WITHOUT ROWID;
            CREATE TABLE item (
                id INTEGER PRIMARY KEY,
                collectionID INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                key BLOB NOT NULL,
                pageIndex INTEGER NOT NULL,
                position INTEGER NOT NULL,
                json TEXT NOT NULL,
                pass INTEGER NOT NULL,
                createdSequence INTEGER NOT NULL,
                changedSequence INTEGER NOT NULL,
                UNIQUE (collectionID, key)
            );
            CREATE INDEX itemOrder ON item(collectionID, pageIndex, position);
            CREATE VIRTUAL TABLE itemText USING fts5(text, collectionID UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
            CREATE TABLE itemTextState (
                collectionID INTEGER PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
                sequence INTEGER NOT NULL,
                itemCount INTEGER NOT NULL
            );
            """)
    }

    /// The posts of a version-2 database become items of one collection per synced resource,
    /// as the JSON the mock server sends; the next sync of that URL revalidates their pages.
    private static func copyPosts(_ db: Database) throws {
        let resources = try String.fetchAll(db, sql: "SELECT DISTINCT resource FROM post ORDER BY resource")
        for (index, resource) in resources.enumerated() {
            let name = resources.count == 1 ? "posts" : "posts-\(index + 1)"
            try db.execute(sql: """
                INSERT INTO collection (name, url, createdAt, passComplete) VALUES (?, ?, CAST(strftime('%s', 'now') AS REAL), 1)
                """, arguments: [name, resource])
            let collection = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO item (collectionID, key, pageIndex, position, json, pass, createdSequence, changedSequence)
                SELECT ?, id, 0, id, json_object('author', author, 'body', body, 'id', id, 'title', title,
                       'updated_at', strftime('%Y-%m-%dT%H:%M:%SZ', updatedAt, 'unixepoch')), 0, 0, 0
                FROM post WHERE resource = ?
                """, arguments: [collection, resource])
        }
    }
}
