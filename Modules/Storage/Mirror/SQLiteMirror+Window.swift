import Foundation
import GRDB
import JSON
import MirrorStore

extension SQLiteMirror {
    /// Up to `limit` rows from `start` on (`start` itself included), in the server's order.
    public func rows(in collectionID: Int64, from start: ItemPosition?, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields) + " WHERE collectionID = ? AND (pageIndex, position) >= (?, ?) ORDER BY pageIndex, position LIMIT ?"
            let start = start ?? ItemPosition(pageIndex: 0, position: Int.min)
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, start.pageIndex, start.position, max(0, limit)]).map(ItemRow.init(row:))
        }
    }

    /// Up to `limit` rows before `end` (excluded), in the server's order.
    public func rows(in collectionID: Int64, before end: ItemPosition, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?) ORDER BY pageIndex DESC, position DESC LIMIT ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, end.pageIndex, end.position, max(0, limit)])
                .map(ItemRow.init(row:)).reversed()
        }
    }

    /// Up to `limit` rows from the `offset`-th (0 for the first): for jumps (to the end, to a
    /// row number). Skipping walks the order index only, never the items.
    public func rows(in collectionID: Int64, atOffset offset: Int, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT ? OFFSET ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, max(0, limit), max(0, offset)]).map(ItemRow.init(row:))
        }
    }

    /// How many items come before `position` (its row number, from 0).
    public func ordinal(of position: ItemPosition, in collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?)
                """, arguments: [collectionID, position.pageIndex, position.position]) ?? 0
        }
    }

    /// The item with row id `id`, if it is still current.
    public func item(id: Int64) throws -> StoredItem? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(ItemKey.column), json, pageIndex, position, createdSequence, changedSequence FROM item WHERE id = ? AND pageIndex >= 0
                """, arguments: [id]).map(StoredItem.init(row:))
        }
    }

    /// The JSON of the collection's first item, to choose which members rows show.
    public func firstItemJSON(in collectionID: Int64) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT json FROM item WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT 1
                """, arguments: [collectionID])
        }
    }

    private func rowSelect(_ fields: RowFields) -> String {
        "SELECT id, \(ItemKey.column), pageIndex, position, createdSequence, changedSequence, "
            + "\(RowFields.expression(fields.title)) AS title, \(RowFields.expression(fields.subtitle)) AS subtitle FROM item"
    }
}
