import Foundation
import GRDB
import JSON
import MirrorStore

/// The items of an incremental run merged into a collection (``SQLiteMirror/mergeItems(_:of:now:)``):
/// an item the collection holds has its JSON replaced where it stands (its change number moves
/// only when the JSON changed); a new one goes after the last item. Nothing is set aside or
/// removed, and no page record changes.
enum ItemMerge {
    static func merge(_ items: [(key: ItemKey, json: Data)], of collectionID: Int64, db: Database) throws -> PageWrite {
        let sequence = try Int.fetchOne(db, sql: "UPDATE collection SET changeSequence = changeSequence + 1 WHERE id = ? RETURNING changeSequence",
                                        arguments: [collectionID]) ?? 0
        let pass = try Int.fetchOne(db, sql: "SELECT pass FROM collection WHERE id = ?", arguments: [collectionID]) ?? 0
        let last = try Row.fetchOne(db, sql: """
            SELECT pageIndex, position FROM item WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex DESC, position DESC LIMIT 1
            """, arguments: [collectionID])
        let lastPage: Int = last?["pageIndex"] ?? 0
        var nextPosition: Int = (last?["position"] ?? -1) + 1
        let update = try db.cachedStatement(sql: """
            UPDATE item SET changedSequence = CASE WHEN json = ?1 THEN changedSequence ELSE ?2 END, json = ?1
            WHERE collectionID = ?3 AND key = ?4
            """)
        let insert = try db.cachedStatement(sql: """
            INSERT INTO item (collectionID, key, pageIndex, position, json, pass, createdSequence, changedSequence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var result = PageWrite()
        for item in items {
            let json = String(decoding: item.json, as: UTF8.self)
            try update.execute(arguments: [json, sequence, collectionID, item.key.databaseValue])
            guard db.changesCount == 0 else { continue }
            try insert.execute(arguments: [collectionID, item.key.databaseValue, lastPage, nextPosition, json, pass, sequence, sequence])
            nextPosition += 1
            result.created += 1
        }
        result.changed = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM item WHERE collectionID = ?1 AND changedSequence = ?2 AND createdSequence != ?2
            """, arguments: [collectionID, sequence]) ?? 0
        return result
    }
}
