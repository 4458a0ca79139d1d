import GRDB
import GRDBSQLite

/// The statements a page write runs besides its items' upsert (``upsertEach``): the change
/// number, setting aside, the page's record and envelope. Each is GRDB's cached statement, with
/// its named parameters (`:collection`) bound here through SQLite's API: GRDB's arguments, a
/// dictionary of boxed values matched by name, cost more than SQLite's own work for them. A cold
/// sync's writer spent about 8 µs a page on the change number alone. (Statements a page write
/// runs only now and then, when an item moves, stay with GRDB.)
enum NamedParameters {
    /// A value bound to a parameter.
    enum Value {
        case integer(Int)
        case real(Double)
        case text(String)
        case null

        init(_ text: String?) { self = text.map(Value.text) ?? .null }
        init(_ integer: Int?) { self = integer.map(Value.integer) ?? .null }
    }

    /// Steps `statement` once with `values` bound by name (a name the statement does not use
    /// is left out, one it uses must be given); the first column of the row it returns, `nil`
    /// when it returns none.
    @discardableResult
    static func step(_ statement: Statement, _ values: KeyValuePairs<String, Value>, db: Database) throws -> Int? {
        let prepared = statement.sqliteStatement
        defer {
            sqlite3_reset(prepared)
            sqlite3_clear_bindings(prepared)
        }
        var bound = 0
        for (name, value) in values {
            let index = sqlite3_bind_parameter_index(prepared, name)
            guard index > 0 else { continue }
            bound += 1
            let code = switch value {
            case .integer(let number): sqlite3_bind_int64(prepared, index, Int64(number))
            case .real(let number): sqlite3_bind_double(prepared, index, number)
            case .text(let text): sqlite3_bind_text(prepared, index, text, -1, RawStatement.transient)
            case .null: sqlite3_bind_null(prepared, index)
            }
            guard code == SQLITE_OK else { throw CacheConnection.error(code, db.sqliteConnection) }
        }
        guard bound == sqlite3_bind_parameter_count(prepared) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(bound) of the statement's \(sqlite3_bind_parameter_count(prepared)) parameters given")
        }
        switch sqlite3_step(prepared) {
        case SQLITE_ROW: return Int(sqlite3_column_int64(prepared, 0))
        case SQLITE_DONE: return nil
        case let code: throw CacheConnection.error(code, db.sqliteConnection)
        }
    }
}
