import GRDB
import JSON
import MirrorStore

// MirrorStore, windows of rows: what each call does is said on the protocol.
extension SQLiteMirror {
    public func rows(in collectionID: Int64, from start: ItemPosition?, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields) + " WHERE collectionID = ? AND (pageIndex, position) >= (?, ?) ORDER BY pageIndex, position LIMIT ?"
            let start = start ?? ItemPosition(pageIndex: 0, position: Int.min)
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, start.pageIndex, start.position, max(0, limit)])
                .map { ItemRow(row: $0, fields: fields) }
        }
    }

    public func rows(in collectionID: Int64, before end: ItemPosition, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?) ORDER BY pageIndex DESC, position DESC LIMIT ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, end.pageIndex, end.position, max(0, limit)])
                .map { ItemRow(row: $0, fields: fields) }.reversed()
        }
    }

    public func rows(in collectionID: Int64, atOffset offset: Int, limit: Int, fields: RowFields) throws -> [ItemRow] {
        try read { db in
            let sql = rowSelect(fields)
                + " WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT ? OFFSET ?"
            return try Row.fetchAll(db, sql: sql, arguments: [collectionID, max(0, limit), max(0, offset)])
                .map { ItemRow(row: $0, fields: fields) }
        }
    }

    public func ordinal(of position: ItemPosition, in collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0 AND (pageIndex, position) < (?, ?)
                """, arguments: [collectionID, position.pageIndex, position.position]) ?? 0
        }
    }

    public func item(id: Int64) throws -> StoredItem? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(StoredItem.columns) FROM item WHERE id = ? AND pageIndex >= 0
                """, arguments: [id]).map(StoredItem.init(row:))
        }
    }

    public func firstItemJSON(in collectionID: Int64) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: """
                SELECT json FROM item WHERE collectionID = ? AND pageIndex >= 0 ORDER BY pageIndex, position LIMIT 1
                """, arguments: [collectionID])
        }
    }

    /// The select of a screen's rows, up to its `FROM item`. ``ItemRow/init(row:)`` reads its columns
    /// by number: keep the two in step.
    func rowSelect(_ fields: RowFields) -> String {
        "SELECT id, \(ItemKey.column), pageIndex, position, createdSequence, changedSequence, "
            + "\(RowFields.expression(fields.title)) AS title, \(RowFields.expression(fields.subtitle)) AS subtitle, "
            + "CASE WHEN instr(json, '\\u0000') > 0 THEN json END AS jsonHoldingU0000 FROM item"
    }
}
