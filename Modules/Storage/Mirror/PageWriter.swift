import Foundation
import GRDB
import GRDBSQLite
import JSON
import MirrorStore

/// The statements that write one changed page, inside ``SQLiteMirror/writePages(_:of:pass:now:)``'s
/// transaction.
enum PageWriter {
    /// A key of the page that another page of this pass listed already (found by the upsert).
    struct ListedBefore: Error {
        var key: String
        /// The page of this pass that lists it.
        var pageIndex: Int
        /// The page that lists it again.
        var foundOnPage: Int
    }

    /// Upserts the page's items one prepared statement at a time (SQLite does no JSON work:
    /// the sync already split and checked the page, and hands each item over as bytes, stored
    /// as text), sets aside what the page no longer lists, and records the page.
    ///
    /// The upsert refuses to move an item away from another page of this pass whose stored
    /// content this pass has seen (that page listed the key already): a step that changes no
    /// row is that duplicate, and costs nothing when there is none.
    /// - Throws: ``ListedBefore`` for such a key; the caller rolls the transaction back.
    static func write(
        _ page: PageContent, items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, now: Date, db: Database
    ) throws -> PageWrite {
        let sequence = try Int.fetchOne(db.cachedStatement(sql: """
            UPDATE collection SET changeSequence = changeSequence + 1 WHERE id = ? RETURNING changeSequence
            """), arguments: [collectionID]) ?? 0
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO item (collectionID, key, pageIndex, position, json, pass, createdSequence, changedSequence)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
            ON CONFLICT (collectionID, key) DO UPDATE SET
                pageIndex = excluded.pageIndex, position = excluded.position, pass = excluded.pass,
                changedSequence = CASE WHEN item.json = excluded.json THEN item.changedSequence ELSE excluded.changedSequence END,
                json = excluded.json
            WHERE item.pageIndex = excluded.pageIndex OR NOT EXISTS (
                SELECT 1 FROM page p WHERE p.collectionID = item.collectionID AND p.pageIndex = item.pageIndex
                    AND p.pass = excluded.pass AND p.contentPass = item.pass)
            """)
        let (inserted, refused) = try upsertEach(items, with: upsert, db: db) { statement, position in
            sqlite3_bind_int64(statement, 1, collectionID)
            sqlite3_bind_int64(statement, 3, Int64(page.index))
            sqlite3_bind_int64(statement, 4, Int64(position))
            sqlite3_bind_int64(statement, 6, Int64(pass))
            sqlite3_bind_int64(statement, 7, Int64(sequence))
        }
        if let refused { throw try listedBefore(refused, page: page.index, of: collectionID, db: db) }
        var result = PageWrite(created: inserted)
        if inserted < items.count {
            // Some items were there already: their change numbers tell which of them changed.
            result.changed = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM item WHERE collectionID = ?1 AND pageIndex = ?2 AND changedSequence = ?3 AND createdSequence != ?3
                """), arguments: [collectionID, page.index, sequence]) ?? 0
        }
        try db.cachedStatement(sql: "UPDATE item SET pageIndex = -1 WHERE collectionID = ? AND pageIndex = ? AND pass != ?")
            .execute(arguments: [collectionID, page.index, pass])
        try db.cachedStatement(sql: """
            INSERT INTO page (collectionID, pageIndex, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt, statedTotal)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9)
            ON CONFLICT (collectionID, pageIndex) DO UPDATE SET url = excluded.url, nextURL = excluded.nextURL,
                itemCount = excluded.itemCount, validator = excluded.validator, pass = excluded.pass,
                contentPass = excluded.contentPass, fetchedAt = excluded.fetchedAt,
                statedTotal = excluded.statedTotal
            """).execute(arguments: [collectionID, page.index, page.url, page.nextURL, items.count, page.validator, pass,
                                     now.timeIntervalSince1970, page.statedTotal])
        return result
    }

    private static func listedBefore(_ key: ItemKey, page index: Int, of collectionID: Int64, db: Database) throws -> ListedBefore {
        let row = try Row.fetchOne(db, sql: "SELECT key, pageIndex FROM item WHERE collectionID = ? AND key = ?",
                                   arguments: [collectionID, key.databaseValue])
        let stored: DatabaseValue = row?["key"] ?? key.databaseValue
        return ListedBefore(key: String.fromDatabaseValue(stored).map { "\"\($0)\"" } ?? stored.description,
                            pageIndex: row?["pageIndex"] ?? index, foundOnPage: index)
    }
}
