import Foundation
import GRDB
import GRDBSQLite
import JSON

/// What an upsert that may move items (``PageWriteRule/Moving/page``, `.caughtUp`) runs besides
/// the rule's upsert, to know which pages its moves leave (``PageWriteRule/itemLeftPage``): an
/// insert that does nothing for a stored key, so a new item costs one statement as before, and,
/// for a stored key only, the read of the page it is on before the upsert moves it.
///
/// (PostgreSQL keeps the rule with a trigger. SQLite would too, but a table with an update trigger
/// makes every insert into it open a statement journal: a cold sync took half as long again.)
struct MoveWatch {
    /// The upsert's `INSERT` with `ON CONFLICT DO NOTHING`, bound as the upsert is.
    let insertNew: Statement
    /// `SELECT pageIndex FROM item WHERE collectionID = ?1 AND key = ?2`.
    let storedPage: Statement
    let collectionID: Int64
    /// The page the items are written on.
    let pageIndex: Int
}

/// The upsert of every item, bound and stepped through SQLite's own API: a page is a hundred
/// executions of one statement, and the binding layer above it would cost more than SQLite's work.
/// Returns how many items were inserted (an upsert that updates leaves SQLite's last insert
/// rowid alone), the first key whose step wrote no row, how many wrote none (it stops at the
/// first unless `goingOn`), and, with a `moveWatch`, the pages that items moved here left.
func upsertEach(
    _ items: [(key: ItemKey, json: Data)], with upsert: Statement, db: Database, goingOn: Bool = false, moveWatch: MoveWatch? = nil,
    bindCommon: (OpaquePointer, Int) -> Void
) throws -> (inserted: Int, refused: ItemKey?, refusedCount: Int, leftPages: Set<Int>) {
    let connection = db.sqliteConnection
    var inserted = 0
    var refused: (first: ItemKey?, count: Int) = (nil, 0)
    var leftPages: Set<Int> = []
    for (position, item) in items.enumerated() {
        let code: Int32 = try item.json.withUnsafeBytes { json in
            // SQLITE_STATIC: the bytes stay put until the steps below are done with them.
            let jsonBytes = json.baseAddress?.assumingMemoryBound(to: CChar.self)
            func step(_ statement: OpaquePointer) -> Int32 {
                sqlite3_reset(statement)
                bindCommon(statement, position)
                sqlite3_bind_text(statement, 5, jsonBytes, Int32(json.count), nil)
                bind(item.key, to: statement, at: 2)
                sqlite3_set_last_insert_rowid(connection, 0)
                let code = sqlite3_step(statement)
                sqlite3_clear_bindings(statement)
                sqlite3_reset(statement)
                return code == SQLITE_DONE && sqlite3_changes(connection) == 0 ? SQLITE_EMPTY : code
            }
            guard let moveWatch else { return step(upsert.sqliteStatement) }
            let insertCode = step(moveWatch.insertNew.sqliteStatement)
            guard insertCode == SQLITE_EMPTY else { return insertCode }
            let before = try storedPage(of: item.key, moveWatch, connection: connection)
            let code = step(upsert.sqliteStatement)
            if code == SQLITE_DONE, let before, before >= 0, before != moveWatch.pageIndex { leftPages.insert(before) }
            return code
        }
        if code == SQLITE_EMPTY {
            refused = (refused.first ?? item.key, refused.count + 1)
            if goingOn { continue }
            return (inserted, item.key, 1, leftPages)
        }
        guard code == SQLITE_DONE else { throw CacheConnection.error(code, connection) }
        if sqlite3_last_insert_rowid(connection) != 0 { inserted += 1 }
    }
    return (inserted, refused.first, refused.count, leftPages)
}

/// The page a stored key is on, read before an upsert may move it.
private func storedPage(of key: ItemKey, _ watch: MoveWatch, connection: OpaquePointer?) throws -> Int? {
    let statement = watch.storedPage.sqliteStatement
    defer { sqlite3_reset(statement) }
    sqlite3_reset(statement)
    sqlite3_bind_int64(statement, 1, watch.collectionID)
    bind(key, to: statement, at: 2)
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return Int(sqlite3_column_int64(statement, 0))
    case SQLITE_DONE: return nil
    case let code: throw CacheConnection.error(code, connection)
    }
}

/// Binds a key as SQLite stores it: an integer, or text with its byte count (a key may hold
/// U+0000, which a C string would end at).
private func bind(_ key: ItemKey, to statement: OpaquePointer, at index: Int32) {
    switch key {
    case .integer(let value): sqlite3_bind_int64(statement, index, Int64(value))
    case .string(let value):
        var key = value
        key.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                  Int32(bytes.count), RawStatement.transient)
        }
    }
}
