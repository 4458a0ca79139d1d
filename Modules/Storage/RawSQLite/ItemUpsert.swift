import Foundation
import GRDB
import GRDBSQLite
import JSON

/// The upsert of every item, bound and stepped through SQLite's own API: a page is a hundred
/// executions of one statement, and the binding layer above it would cost more than SQLite's work.
/// Returns how many items were inserted (an upsert that updates leaves SQLite's last insert
/// rowid alone), the first key whose step wrote no row, and how many wrote none: it stops at the
/// first unless `goingOn`.
func upsertEach(
    _ items: [(key: ItemKey, json: Data)], with upsert: Statement, db: Database, goingOn: Bool = false,
    bindCommon: (OpaquePointer, Int) -> Void
) throws -> (inserted: Int, refused: ItemKey?, refusedCount: Int) {
    let statement = upsert.sqliteStatement
    let connection = db.sqliteConnection
    defer { sqlite3_reset(statement) }
    var inserted = 0
    var refused: (first: ItemKey?, count: Int) = (nil, 0)
    for (position, item) in items.enumerated() {
        sqlite3_reset(statement)
        bindCommon(statement, position)
        sqlite3_set_last_insert_rowid(connection, 0)
        let code: Int32 = item.json.withUnsafeBytes { json in
            // SQLITE_STATIC: the bytes stay put until the steps below are done with them.
            sqlite3_bind_text(statement, 5, json.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(json.count), nil)
            switch item.key {
            case .integer(let value): sqlite3_bind_int64(statement, 2, Int64(value))
            case .string(let value):
                // With its byte count: a key may hold U+0000, which a C string would end at.
                var key = value
                key.withUTF8 { bytes in
                    _ = sqlite3_bind_text(statement, 2, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                          Int32(bytes.count), RawStatement.transient)
                }
            }
            let code = sqlite3_step(statement)
            sqlite3_clear_bindings(statement)
            return code == SQLITE_DONE && sqlite3_changes(connection) == 0 ? SQLITE_EMPTY : code
        }
        if code == SQLITE_EMPTY {
            refused = (refused.first ?? item.key, refused.count + 1)
            if goingOn { continue }
            return (inserted, item.key, 1)
        }
        guard code == SQLITE_DONE else { throw CacheConnection.error(code, connection) }
        if sqlite3_last_insert_rowid(connection) != 0 { inserted += 1 }
    }
    return (inserted, refused.first, refused.count)
}
