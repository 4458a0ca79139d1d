import Foundation
import GRDB
import Pagination

/// Where a sync starts: a new pass from the first page, or the unfinished pass from the page
/// after the last one it wrote.
public struct PassPosition: Sendable, Equatable {
    public var pass: Int
    /// Whether this continues a pass an earlier sync did not finish.
    public var isResumed: Bool
    /// The index of the next page to fetch.
    public var nextPageIndex: Int
    /// The URL of that page; `nil` for the first page (the collection's URL), or when the
    /// resumed pass had already reached the last page.
    public var nextURL: String?
    /// Pages the pass has fetched, in order (for loop detection).
    public var fetchedURLs: [String]

    public init(pass: Int, isResumed: Bool, nextPageIndex: Int, nextURL: String?, fetchedURLs: [String]) {
        self.pass = pass
        self.isResumed = isResumed
        self.nextPageIndex = nextPageIndex
        self.nextURL = nextURL
        self.fetchedURLs = fetchedURLs
    }
}

extension ItemDatabase {
    /// Resumes the collection's unfinished pass, or starts a new one (`restart`, or the last
    /// pass finished).
    public func startPass(of collectionID: Int64, restart: Bool, now: Date = Date()) throws -> PassPosition {
        try write { db in
            guard let collection = try CollectionRecord.fetchOne(db, sql: "SELECT * FROM collection WHERE id = ?", arguments: [collectionID]) else {
                throw StorageError.failed("collection \(collectionID) no longer exists")
            }
            if !restart && !collection.passComplete && collection.pass > 0 && collection.plan != nil {
                let pages = try Row.fetchAll(db, sql: """
                    SELECT pageIndex, url, nextURL FROM page WHERE collectionID = ? AND pass = ? ORDER BY pageIndex
                    """, arguments: [collectionID, collection.pass])
                // Pages are fetched in order: the pass stands after the run of pages 0, 1, 2, …
                var fetched: [String] = []
                var nextURL: String?
                for (expected, page) in pages.enumerated() where page["pageIndex"] as Int == expected {
                    fetched.append(page["url"])
                    nextURL = page["nextURL"]
                }
                if fetched.count == pages.count {
                    return PassPosition(pass: collection.pass, isResumed: true, nextPageIndex: fetched.count,
                                        nextURL: nextURL, fetchedURLs: fetched)
                }
            }
            let pass = collection.pass + 1
            try db.execute(sql: "UPDATE collection SET pass = ?, passComplete = 0, passStartedAt = ? WHERE id = ?",
                           arguments: [pass, now.timeIntervalSince1970, collectionID])
            return PassPosition(pass: pass, isResumed: false, nextPageIndex: 0, nextURL: nil, fetchedURLs: [])
        }
    }

    /// The stored record of page `index`.
    public func page(_ index: Int, of collectionID: Int64) throws -> PageRecord? {
        try read { db in
            try PageRecord.fetchOne(db, sql: "SELECT * FROM page WHERE collectionID = ? AND pageIndex = ?", arguments: [collectionID, index])
        }
    }

    /// Records that page `index` was fetched in `pass` with the content already stored: one
    /// small update, no item written.
    public func markPageUnchanged(_ index: Int, of collectionID: Int64, pass: Int, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "UPDATE page SET pass = ?, fetchedAt = ? WHERE collectionID = ? AND pageIndex = ?",
                           arguments: [pass, now.timeIntervalSince1970, collectionID, index])
        }
    }

    /// Writes a page whose content changed, in one transaction: its items (split out of `body`
    /// by SQLite at `items`, keyed at `key`; items whose JSON did not change keep their change
    /// number), the items it no longer lists set aside until the pass ends, and its record.
    /// - Throws: ``DuplicateKey`` when another page of this pass already listed one of `keys`;
    ///   nothing is written then.
    public func writePage(
        _ index: Int, of collectionID: Int64, pass: Int, url: String, nextURL: String?, validator: String?,
        body: String, items: JSONPath, key: JSONPath, keys: [ItemKey], now: Date = Date()
    ) throws -> PageWrite {
        let keyList = ItemKeyList.json(keys)
        return try write { db in
            if let duplicate = try Row.fetchOne(db, sql: """
                SELECT i.key, i.pageIndex FROM json_each(?) k
                JOIN item i ON i.collectionID = ? AND i.key = k.value
                JOIN page p ON p.collectionID = i.collectionID AND p.pageIndex = i.pageIndex
                WHERE i.pageIndex >= 0 AND i.pageIndex != ? AND p.pass = ? AND p.contentPass = i.pass
                LIMIT 1
                """, arguments: [keyList, collectionID, index, pass]) {
                let keyValue: DatabaseValue = duplicate["key"]
                throw DuplicateKey(key: keyValue.description, pageIndex: duplicate["pageIndex"])
            }
            let sequence = try Int.fetchOne(db, sql: """
                UPDATE collection SET changeSequence = changeSequence + 1 WHERE id = ? RETURNING changeSequence
                """, arguments: [collectionID]) ?? 0
            let outcomes = try Row.fetchAll(db.cachedStatement(sql: """
                INSERT INTO item (collectionID, key, pageIndex, position, json, pass, createdSequence, changedSequence)
                SELECT ?1, json_extract(value, ?2), ?3, key, value, ?4, ?5, ?5 FROM json_each(?6, ?7) WHERE true
                ON CONFLICT (collectionID, key) DO UPDATE SET
                    pageIndex = excluded.pageIndex, position = excluded.position, pass = excluded.pass,
                    changedSequence = CASE WHEN item.json = excluded.json THEN item.changedSequence ELSE excluded.changedSequence END,
                    json = excluded.json
                RETURNING createdSequence = ?5 AS created, changedSequence = ?5 AS changed
                """), arguments: [collectionID, key.sqlitePath, index, pass, sequence, body, items.sqlitePath])
            try db.cachedStatement(sql: "UPDATE item SET pageIndex = -1 WHERE collectionID = ? AND pageIndex = ? AND pass != ?")
                .execute(arguments: [collectionID, index, pass])
            try db.cachedStatement(sql: """
                INSERT INTO page (collectionID, pageIndex, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)
                ON CONFLICT (collectionID, pageIndex) DO UPDATE SET url = excluded.url, nextURL = excluded.nextURL,
                    itemCount = excluded.itemCount, validator = excluded.validator, pass = excluded.pass,
                    contentPass = excluded.contentPass, fetchedAt = excluded.fetchedAt
                """).execute(arguments: [collectionID, index, url, nextURL, keys.count, validator, pass, now.timeIntervalSince1970])
            var result = PageWrite()
            for outcome in outcomes {
                if outcome["created"] as Bool { result.created += 1 } else if outcome["changed"] as Bool { result.changed += 1 }
            }
            return result
        }
    }

    /// Gives up the current pass without deleting anything: the next sync starts a new one.
    public func abandonPass(of collectionID: Int64) throws {
        try write { db in try db.execute(sql: "UPDATE collection SET passComplete = 1 WHERE id = ?", arguments: [collectionID]) }
    }

    /// Ends a pass that reached the last page: deletes the items no page of the pass lists
    /// and the pages beyond the last. Returns how many items were deleted.
    public func finishPass(_ pass: Int, of collectionID: Int64, now: Date = Date()) throws -> Int {
        try write { db in
            try db.execute(sql: """
                DELETE FROM item WHERE collectionID = ?1 AND (pageIndex < 0 OR NOT EXISTS (
                    SELECT 1 FROM page p WHERE p.collectionID = item.collectionID AND p.pageIndex = item.pageIndex
                    AND p.pass = ?2 AND p.contentPass = item.pass))
                """, arguments: [collectionID, pass])
            let removed = db.changesCount
            try db.execute(sql: "DELETE FROM page WHERE collectionID = ? AND pass != ?", arguments: [collectionID, pass])
            try db.execute(sql: "UPDATE collection SET passComplete = 1, lastCompleteAt = ? WHERE id = ? AND pass = ?",
                           arguments: [now.timeIntervalSince1970, collectionID, pass])
            return removed
        }
    }
}

/// Item keys as a JSON array for SQLite's `json_each`: integers as numbers, strings quoted.
enum ItemKeyList {
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
