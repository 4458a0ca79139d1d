import Foundation
import GRDB
import GRDBSQLite
import JSON
import MirrorStore

/// The SQLite side of ``PageWriteRule``: its statements under this file's column names, run inside
/// the transaction of ``SQLiteMirror/writePages(_:of:pass:now:)`` (or of a catch-up or a merge),
/// with the items bound one at a time.
enum PageWriter {
    /// Writes a changed page by the rule. SQLite does no JSON work: the sync already split and
    /// checked the page, and hands each item over as bytes, stored as text.
    ///
    /// A page whose listing may move (``PageContent/repeatsAllowed``) leaves a repeat where it is
    /// and goes on; its record then keeps no validator, and the next sync reads the page again.
    /// - Throws: ``DuplicateKey`` for a repeat otherwise; the caller rolls the transaction back.
    static func write(
        _ page: PageContent, items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, now: Date, db: Database
    ) throws -> PageWrite {
        // A page that held no item before (every page of a first sync) has nothing to set aside
        // after: the look costs one step of the order index, where setting aside reads the row
        // of every item the page now holds, to see which pass wrote it.
        let place: KeyValuePairs<String, NamedParameters.Value> = [":collection": .integer(Int(collectionID)), ":page": .integer(page.index)]
        let heldItems = try NamedParameters.step(db.cachedStatement(sql: pageHoldsItems), place, db: db) != 0
        let (result, refused) = try upsert(items, moving: .page, onPage: page.index, from: 0, of: collectionID, pass: pass,
                                           goingOn: page.repeatsAllowed, db: db)
        if let refused, !page.repeatsAllowed { throw try listedBefore(refused, page: page.index, of: collectionID, db: db) }
        let record: KeyValuePairs<String, NamedParameters.Value> = [
            ":collection": .integer(Int(collectionID)), ":page": .integer(page.index), ":pass": .integer(pass), ":url": .text(page.url),
            ":next_url": .init(page.nextURL), ":item_count": .integer(items.count - result.repeated),
            ":validator": .init(result.repeated > 0 ? nil : page.validator), ":now": .real(now.timeIntervalSince1970),
            ":stated_total": .init(page.statedTotal),
        ]
        if heldItems { try NamedParameters.step(db.cachedStatement(sql: setAside), record, db: db) }
        try NamedParameters.step(db.cachedStatement(sql: recordPage), record, db: db)
        return result
    }

    /// The items a catch-up found at the front of the listing (``PassWriting/writeCaughtUp(_:of:pass:firstPosition:now:)``).
    static func writeCaughtUp(
        _ items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, firstPosition: Int, db: Database
    ) throws -> PageWrite {
        let write = try upsert(items, moving: .caughtUp, onPage: 0, from: firstPosition, of: collectionID, pass: pass, goingOn: true,
                               db: db).write
        if write.repeated < items.count { try noLongerAsWritten(page: 0, of: collectionID, db: db) }
        return write
    }

    /// The items of an incremental run (``PassWriting/mergeItems(_:of:now:)``).
    static func merge(_ items: [(key: ItemKey, json: Data)], of collectionID: Int64, db: Database) throws -> PageWrite {
        let pass = try Int.fetchOne(db, sql: "SELECT pass FROM collection WHERE id = ?", arguments: [collectionID]) ?? 0
        let last = try Row.fetchOne(db, sql: """
            SELECT pageIndex, position FROM item WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex DESC, position DESC LIMIT 1
            """, arguments: [collectionID])
        let page: Int = last?["pageIndex"] ?? 0
        let write = try upsert(items, moving: .never, onPage: page, from: (last?["position"] ?? -1) + 1,
                               of: collectionID, pass: pass, goingOn: false, db: db).write
        if write.created > 0 { try noLongerAsWritten(page: page, of: collectionID, db: db) }
        return write
    }

    /// ``PageWriteRule/pageNoLongerAsWritten``: page `index` gained or lost an item other than by its own write.
    static func noLongerAsWritten(page index: Int, of collectionID: Int64, db: Database) throws {
        try db.cachedStatement(sql: pageNoLongerAsWritten).execute(arguments: ["collection": collectionID, "page": index])
    }

    /// ``PageWriteRule/nextChangeNumber``: the collection's next change number, which what a write
    /// creates or changes carries.
    static func nextChangeNumber(of collectionID: Int64, db: Database) throws -> Int {
        try NamedParameters.step(db.cachedStatement(sql: nextChangeNumber), [":collection": .integer(Int(collectionID))], db: db) ?? 0
    }

    // MARK: The upsert

    /// Takes the collection's next change number and upserts `items` on page `pageIndex` at
    /// positions from `firstPosition`; returns what changed and the first key refused. The pages
    /// that items moved here left no longer hold what they wrote (``MoveWatch``).
    private static func upsert(
        _ items: [(key: ItemKey, json: Data)], moving: PageWriteRule.Moving, onPage pageIndex: Int, from firstPosition: Int,
        of collectionID: Int64, pass: Int, goingOn: Bool, db: Database
    ) throws -> (write: PageWrite, refused: ItemKey?) {
        let sequence = try nextChangeNumber(of: collectionID, db: db)
        let statement = try db.cachedStatement(sql: upserts[moving]!)
        let moveWatch = moving == .never ? nil : MoveWatch(insertNew: try db.cachedStatement(sql: insertNew),
                                                           storedPage: try db.cachedStatement(sql: storedPage),
                                                           collectionID: collectionID, pageIndex: pageIndex)
        let (inserted, refused, refusedCount, leftPages) = try upsertEach(items, with: statement, db: db, goingOn: goingOn,
                                                                          moveWatch: moveWatch) { statement, position in
            sqlite3_bind_int64(statement, 1, collectionID)
            sqlite3_bind_int64(statement, 3, Int64(pageIndex))
            sqlite3_bind_int64(statement, 4, Int64(firstPosition + position))
            sqlite3_bind_int64(statement, 6, Int64(pass))
            sqlite3_bind_int64(statement, 7, Int64(sequence))
        }
        for left in leftPages.sorted() { try noLongerAsWritten(page: left, of: collectionID, db: db) }
        var result = PageWrite(created: inserted, repeated: refusedCount)
        if inserted + refusedCount < items.count {
            // Some items were there already: their change numbers tell which of them changed.
            // A page's items are read through the page's index; a merge's may be on any page.
            let onThePage = moving == .never ? "" : "AND pageIndex = :page"
            result.changed = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM item WHERE collectionID = :collection \(onThePage)
                    AND changedSequence = :sequence AND createdSequence != :sequence
                """), arguments: ["collection": collectionID, "page": pageIndex, "sequence": sequence]) ?? 0
        }
        return (result, refused)
    }

    private static func listedBefore(_ key: ItemKey, page index: Int, of collectionID: Int64, db: Database) throws -> DuplicateKey {
        let row = try Row.fetchOne(db, sql: "SELECT key, pageIndex FROM item WHERE collectionID = ? AND key = ?",
                                   arguments: [collectionID, key.databaseValue])
        let stored: DatabaseValue = row?["key"] ?? key.databaseValue
        return DuplicateKey(key: String.fromDatabaseValue(stored).map { "\"\($0)\"" } ?? stored.description,
                            pageIndex: row?["pageIndex"] ?? index, foundOnPage: index)
    }

    // MARK: The rule's statements

    private static let nextChangeNumber = sqlite(PageWriteRule.nextChangeNumber)
    private static let setAside = sqlite(PageWriteRule.setAside)
    private static let recordPage = sqlite(PageWriteRule.recordPage)
    private static let pageNoLongerAsWritten = sqlite(PageWriteRule.pageNoLongerAsWritten)
    /// The parameters' positions are their order (`:key` is 2, `:json` 5), as ``upsertEach`` binds them.
    private static let itemRows = "VALUES (:collection, :key, :page, :position, :json, :pass, :sequence, :sequence)"
    private static let upserts = Dictionary(uniqueKeysWithValues: PageWriteRule.Moving.allCases.map { moving in
        (moving, sqlite(PageWriteRule.upsertItems(itemRows, moving: moving, contentColumns: ["json"])))
    })
    /// ``MoveWatch``'s statements.
    private static let insertNew = sqlite(PageWriteRule.insertItems(itemRows, contentColumns: ["json"])
        + " ON CONFLICT (collection_id, key) DO NOTHING")
    private static let storedPage = "SELECT pageIndex FROM item WHERE collectionID = ?1 AND key = ?2"
    private static let pageHoldsItems = "SELECT EXISTS (SELECT 1 FROM item WHERE collectionID = :collection AND pageIndex = :page)"

    private static func sqlite(_ statement: String) -> String { MirrorSQL.underSQLiteNames(statement) }
}
