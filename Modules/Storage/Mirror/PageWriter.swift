import Foundation
import GRDB
import GRDBSQLite
import Pagination

/// One page as a sync hands it to the item database.
public struct PageContent: Sendable {
    public var index: Int
    /// The URL requested, and the next page's (`nil` on the last page).
    public var url: String
    public var nextURL: String?
    /// What identifies the content (see the sync's content validator).
    public var validator: String?
    /// The items in order, each its key and its UTF-8 JSON without insignificant whitespace;
    /// `nil` when the content stored for this page is current.
    public var items: [(key: ItemKey, json: Data)]?

    public init(index: Int, url: String, nextURL: String?, validator: String?, items: [(key: ItemKey, json: Data)]?) {
        self.index = index
        self.url = url
        self.nextURL = nextURL
        self.validator = validator
        self.items = items
    }
}

/// The statements that write one changed page, inside ``ItemDatabase/writePages(_:of:pass:now:)``'s
/// transaction.
enum PageWriter {
    /// A key of `items` that another page of this pass listed already, with that page. One
    /// statement looks the keys up through the unique index (`+` keeps the planner off the
    /// page index, which would scan the whole collection); set-aside items (-1) have no page to join.
    static func listedBefore(
        _ items: [(key: ItemKey, json: Data)], page index: Int, of collectionID: Int64, pass: Int, db: Database
    ) throws -> (key: String, pageIndex: Int)? {
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT i.key, i.pageIndex FROM item i
            JOIN page p ON p.collectionID = i.collectionID AND p.pageIndex = i.pageIndex
            WHERE i.collectionID = ? AND i.key IN (SELECT value FROM json_each(?)) AND +i.pageIndex != ?
                AND p.pass = ? AND p.contentPass = i.pass
            LIMIT 1
            """), arguments: [collectionID, KeyList.json(items.map(\.key)), index, pass])
        guard let row else { return nil }
        let key: DatabaseValue = row["key"]
        return (String.fromDatabaseValue(key).map { "\"\($0)\"" } ?? key.description, row["pageIndex"])
    }

    /// Upserts the page's items one prepared statement at a time (SQLite does no JSON work:
    /// the sync already split and checked the page, and hands each item over as bytes, stored
    /// as text), sets aside what the page no longer lists, and records the page.
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
            """)
        try upsertEach(items, with: upsert, db: db) { statement, position in
            sqlite3_bind_int64(statement, 1, collectionID)
            sqlite3_bind_int64(statement, 3, Int64(page.index))
            sqlite3_bind_int64(statement, 4, Int64(position))
            sqlite3_bind_int64(statement, 6, Int64(pass))
            sqlite3_bind_int64(statement, 7, Int64(sequence))
        }
        let counts = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT coalesce(sum(createdSequence = ?1), 0) AS created, coalesce(sum(changedSequence = ?1 AND createdSequence != ?1), 0) AS changed
            FROM item WHERE collectionID = ?2 AND pageIndex = ?3
            """), arguments: [sequence, collectionID, page.index])
        let result = PageWrite(created: counts?["created"] ?? 0, changed: counts?["changed"] ?? 0)
        try db.cachedStatement(sql: "UPDATE item SET pageIndex = -1 WHERE collectionID = ? AND pageIndex = ? AND pass != ?")
            .execute(arguments: [collectionID, page.index, pass])
        try db.cachedStatement(sql: """
            INSERT INTO page (collectionID, pageIndex, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)
            ON CONFLICT (collectionID, pageIndex) DO UPDATE SET url = excluded.url, nextURL = excluded.nextURL,
                itemCount = excluded.itemCount, validator = excluded.validator, pass = excluded.pass,
                contentPass = excluded.contentPass, fetchedAt = excluded.fetchedAt
            """).execute(arguments: [collectionID, page.index, page.url, page.nextURL, items.count, page.validator, pass,
                                     now.timeIntervalSince1970])
        return result
    }
}

/// The upsert of every item, bound and stepped through SQLite's own API: a page is a hundred
/// executions of one statement, and the binding layer above it would cost more than SQLite's work.
private func upsertEach(
    _ items: [(key: ItemKey, json: Data)], with upsert: Statement, db: Database,
    bindCommon: (OpaquePointer, Int) -> Void
) throws {
    let statement = upsert.sqliteStatement
    for (position, item) in items.enumerated() {
        sqlite3_reset(statement)
        bindCommon(statement, position)
        let code: Int32 = item.json.withUnsafeBytes { json in
            // SQLITE_STATIC: the bytes stay put until the step below is done with them.
            sqlite3_bind_text(statement, 5, json.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(json.count), nil)
            switch item.key {
            case .integer(let value): sqlite3_bind_int64(statement, 2, Int64(value))
            case .string(let value): sqlite3_bind_text(statement, 2, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            let code = sqlite3_step(statement)
            sqlite3_clear_bindings(statement)
            return code
        }
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
    }
    sqlite3_reset(statement)
}


/// Item keys as a JSON array for SQLite's `json_each`: integers as numbers, strings quoted.
enum KeyList {
    static func json(_ keys: [ItemKey]) -> String {
        var text = "["
        for (index, key) in keys.enumerated() {
            if index > 0 { text += "," }
            switch key {
            case .integer(let value): text += String(value)
            case .string(let value): text += quoted(value)
            }
        }
        return text + "]"
    }

    private static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
