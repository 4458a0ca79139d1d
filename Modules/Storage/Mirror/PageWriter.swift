import Foundation
import GRDB
import GRDBSQLite
import JSON
import MirrorStore

/// The statements that write one changed page, inside ``SQLiteMirror/writePages(_:of:pass:now:)``'s
/// transaction, and the items a catch-up puts before the first page's own.
enum PageWriter {
    /// Upserts the page's items one prepared statement at a time (SQLite does no JSON work:
    /// the sync already split and checked the page, and hands each item over as bytes, stored
    /// as text), sets aside what the page no longer lists, and records the page.
    ///
    /// The upsert refuses to move an item away from another page of this pass whose stored
    /// content this pass has seen (that page listed the key already): a step that changes no
    /// row is that repeat, and costs nothing when there is none. A page whose listing may move
    /// (``PageContent/repeatsAllowed``) leaves such an item where it is and goes on; its record
    /// then keeps no validator, since what it holds is not the page the server sent, and the
    /// next sync reads the page again.
    /// - Throws: ``ListedBefore`` for a repeat otherwise; the caller rolls the transaction back.
    static func write(
        _ page: PageContent, items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, now: Date, db: Database
    ) throws -> PageWrite {
        let statement = try db.cachedStatement(sql: upsertSQL(refusing: """
            item.pageIndex = excluded.pageIndex OR NOT EXISTS (
                SELECT 1 FROM page p WHERE p.collectionID = item.collectionID AND p.pageIndex = item.pageIndex
                    AND p.pass = excluded.pass AND p.contentPass = item.pass)
            """))
        let (result, refused) = try upsert(items, with: statement, onPage: page.index, from: 0, of: collectionID, pass: pass,
                                           goingOn: page.repeatsAllowed, db: db)
        if let refused, !page.repeatsAllowed { throw try listedBefore(refused, page: page.index, of: collectionID, db: db) }
        try db.cachedStatement(sql: "UPDATE item SET pageIndex = -1 WHERE collectionID = ? AND pageIndex = ? AND pass != ?")
            .execute(arguments: [collectionID, page.index, pass])
        try db.cachedStatement(sql: """
            INSERT INTO page (collectionID, pageIndex, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt, statedTotal)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9)
            ON CONFLICT (collectionID, pageIndex) DO UPDATE SET url = excluded.url, nextURL = excluded.nextURL,
                itemCount = excluded.itemCount, validator = excluded.validator, pass = excluded.pass,
                contentPass = excluded.contentPass, fetchedAt = excluded.fetchedAt,
                statedTotal = excluded.statedTotal
            """).execute(arguments: [collectionID, page.index, page.url, page.nextURL, items.count - result.repeated,
                                     result.repeated > 0 ? nil : page.validator, pass, now.timeIntervalSince1970, page.statedTotal])
        return result
    }

    /// The items a catch-up found at the front of the listing, on the first page at positions
    /// from `firstPosition`: an item any page of this pass lists (the first page's own included)
    /// is left where it is.
    static func writeCaughtUp(
        _ items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, firstPosition: Int, db: Database
    ) throws -> PageWrite {
        let statement = try db.cachedStatement(sql: upsertSQL(refusing: """
            NOT EXISTS (
                SELECT 1 FROM page p WHERE p.collectionID = item.collectionID AND p.pageIndex = item.pageIndex
                    AND p.pass = excluded.pass AND p.contentPass = item.pass)
            """))
        return try upsert(items, with: statement, onPage: 0, from: firstPosition, of: collectionID, pass: pass, goingOn: true, db: db).write
    }

    // MARK: The upsert

    /// The upsert by key, which updates an existing item only where `condition` holds.
    private static func upsertSQL(refusing condition: String) -> String {
        """
        INSERT INTO item (collectionID, key, pageIndex, position, json, pass, createdSequence, changedSequence)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
        ON CONFLICT (collectionID, key) DO UPDATE SET
            pageIndex = excluded.pageIndex, position = excluded.position, pass = excluded.pass,
            changedSequence = CASE WHEN item.json = excluded.json THEN item.changedSequence ELSE excluded.changedSequence END,
            json = excluded.json
        WHERE \(condition)
        """
    }

    /// Takes the collection's next change number and upserts `items` on page `pageIndex` at
    /// positions from `firstPosition`; returns what changed and the first key refused.
    private static func upsert(
        _ items: [(key: ItemKey, json: Data)], with upsert: Statement, onPage pageIndex: Int, from firstPosition: Int,
        of collectionID: Int64, pass: Int, goingOn: Bool, db: Database
    ) throws -> (write: PageWrite, refused: ItemKey?) {
        let sequence = try Int.fetchOne(db.cachedStatement(sql: """
            UPDATE collection SET changeSequence = changeSequence + 1 WHERE id = ? RETURNING changeSequence
            """), arguments: [collectionID]) ?? 0
        let (inserted, refused, refusedCount) = try upsertEach(items, with: upsert, db: db, goingOn: goingOn) { statement, position in
            sqlite3_bind_int64(statement, 1, collectionID)
            sqlite3_bind_int64(statement, 3, Int64(pageIndex))
            sqlite3_bind_int64(statement, 4, Int64(firstPosition + position))
            sqlite3_bind_int64(statement, 6, Int64(pass))
            sqlite3_bind_int64(statement, 7, Int64(sequence))
        }
        var result = PageWrite(created: inserted, repeated: refusedCount)
        if inserted + refusedCount < items.count {
            // Some items were there already: their change numbers tell which of them changed.
            result.changed = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM item WHERE collectionID = ?1 AND pageIndex = ?2 AND changedSequence = ?3 AND createdSequence != ?3
                """), arguments: [collectionID, pageIndex, sequence]) ?? 0
        }
        return (result, refused)
    }

    private static func listedBefore(_ key: ItemKey, page index: Int, of collectionID: Int64, db: Database) throws -> ListedBefore {
        let row = try Row.fetchOne(db, sql: "SELECT key, pageIndex FROM item WHERE collectionID = ? AND key = ?",
                                   arguments: [collectionID, key.databaseValue])
        let stored: DatabaseValue = row?["key"] ?? key.databaseValue
        return ListedBefore(key: String.fromDatabaseValue(stored).map { "\"\($0)\"" } ?? stored.description,
                            pageIndex: row?["pageIndex"] ?? index, foundOnPage: index)
    }
}
