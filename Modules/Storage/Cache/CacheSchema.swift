import GRDB
import HTTPTypes

/// The cache database's schema: its tables and their named migrations, append-only (a file of
/// any earlier version migrates; the cache is disposable, so a damaged one is rebuilt instead).
///
/// - `cacheEntry`: one row per stored response variant (primary key and `Vary` variant key), and
///   what is kept of a body the storage left out (``OmittedBody``: a sync's pages);
/// - `cacheBody`: the bodies, apart, so a lookup or a 304 refresh never steps over a body's pages;
/// - `cacheMeta`: the total size, kept by triggers, for eviction;
/// - `cacheStat`: what `fresh cache stats` counts.
enum CacheSchema {
    /// The identifiers ``migrator`` registers, in order, as a file this version set up lists them in
    /// `grdb_migrations` (what ``CacheConnection/openReady(at:migrations:probeTables:pragmas:busyTimeout:)`` compares).
    static let identifiers = ["v1-cache-entries", "v2-bodies-apart", "v3-omitted-bodies", "v4-entries-by-credentials",
                              "v5-entries-by-secret-fields"]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-cache-entries") { db in
            try db.execute(sql: """
                CREATE TABLE cacheEntry (
                    key TEXT NOT NULL,
                    variantKey TEXT NOT NULL,
                    url TEXT NOT NULL,
                    method TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    headers TEXT NOT NULL,
                    body BLOB NOT NULL,
                    requestTime DOUBLE NOT NULL,
                    responseTime DOUBLE NOT NULL,
                    size INTEGER NOT NULL,
                    lastAccess DOUBLE NOT NULL,
                    PRIMARY KEY (key, variantKey)
                );
                CREATE INDEX cacheEntryByLastAccess ON cacheEntry(lastAccess);
                CREATE TABLE cacheMeta (id INTEGER PRIMARY KEY CHECK (id = 1), totalBytes INTEGER NOT NULL);
                INSERT INTO cacheMeta (id, totalBytes) VALUES (1, 0);
                CREATE TRIGGER cacheEntryInserted AFTER INSERT ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes + NEW.size WHERE id = 1;
                END;
                CREATE TRIGGER cacheEntryDeleted AFTER DELETE ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes - OLD.size WHERE id = 1;
                END;
                CREATE TRIGGER cacheEntryResized AFTER UPDATE OF size ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes - OLD.size + NEW.size WHERE id = 1;
                END;
                CREATE TABLE cacheStat (
                    kind TEXT PRIMARY KEY,
                    count INTEGER NOT NULL DEFAULT 0,
                    bytesSaved INTEGER NOT NULL DEFAULT 0,
                    bytesReceived INTEGER NOT NULL DEFAULT 0
                );
                """)
        }
        // Bodies move to a table of their own (see CacheEntryRecord), under their old rowids.
        // AUTOINCREMENT: a body id is never handed out twice, so an entry whose body row went
        // missing can never be joined to another entry's body. The old column's pages are reused.
        migrator.registerMigration("v2-bodies-apart") { db in
            try db.execute(sql: """
                CREATE TABLE cacheBody (id INTEGER PRIMARY KEY AUTOINCREMENT, body BLOB NOT NULL);
                INSERT INTO cacheBody (id, body) SELECT rowid, body FROM cacheEntry;
                ALTER TABLE cacheEntry ADD COLUMN bodyID INTEGER NOT NULL DEFAULT 0;
                UPDATE cacheEntry SET bodyID = rowid;
                ALTER TABLE cacheEntry DROP COLUMN body;
                CREATE TRIGGER cacheEntryBodyDeleted AFTER DELETE ON cacheEntry BEGIN
                    DELETE FROM cacheBody WHERE id = OLD.bodyID;
                END;
                """)
        }
        // What a sync's page entries keep of their bodies gets columns of its own; entries (`sync `
        // keys) that kept it as two made-up header fields have it moved there, and stay fresh.
        migrator.registerMigration("v3-omitted-bodies") { db in
            try db.execute(sql: """
                ALTER TABLE cacheEntry ADD COLUMN omittedLength INTEGER;
                ALTER TABLE cacheEntry ADD COLUMN omittedDigest TEXT;
                """)
            let length = HTTPField.Name("Fresh-Body-Length")!, digest = HTTPField.Name("Fresh-Body-Digest")!
            for row in try Row.fetchAll(db, sql: "SELECT rowid, headers FROM cacheEntry WHERE key LIKE 'sync %'") {
                var fields = CacheEntryRecord.fields(fromLines: row["headers"])
                let kept = (length: fields[length].flatMap { Int($0) }, digest: fields[digest])
                fields[length] = nil
                fields[digest] = nil
                try db.execute(sql: "UPDATE cacheEntry SET headers = ?, omittedLength = ?, omittedDigest = ? WHERE rowid = ?",
                               arguments: [CacheEntryRecord.lines(of: fields), kept.length, kept.digest, row["rowid"]])
            }
        }
        // Responses are kept apart by the credentials and the certificate check of their request
        // (``CacheKey/variant(vary:requestFields:uncheckedTLS:)``); an entry stored before says
        // neither, and would answer whoever asks (a `Vary: Authorization` one held the token as
        // text). The cache is disposable: every entry goes; a sync's pages are revalidated with the
        // mirror's ETags (PageValidatorStorage's stand-ins), the others downloaded once again.
        migrator.registerMigration("v4-entries-by-credentials") { db in try emptyOverwriting(db) }
        // The same, once more, for a file v4 emptied before secret-named fields (`X-Api-Key`), an
        // own `Host` and a redirect's credentials joined the rule, and before it overwrote.
        migrator.registerMigration("v5-entries-by-secret-fields") { db in try emptyOverwriting(db) }
        return migrator
    }

    /// Deletes every entry with `secure_delete` on: the freed pages are overwritten, not left
    /// holding what was deleted; the connection's own setting (`FAST`, say) comes back after.
    private static func emptyOverwriting(_ db: Database) throws {
        // A new file has nothing to delete, and need not write its pages again to say so.
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM cacheEntry LIMIT 1") == true else { return }
        let previous = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
        try db.execute(sql: "PRAGMA secure_delete = ON; DELETE FROM cacheEntry; PRAGMA secure_delete = \(previous == 2 ? "FAST" : String(previous))")
    }
}
