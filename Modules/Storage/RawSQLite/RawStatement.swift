import GRDB
import GRDBSQLite

/// A prepared statement run on a bare SQLite connection handle: the cache's bookkeeping writes,
/// which run on ``CacheConnection`` (no GRDB queue open) or inside a GRDB transaction (on
/// `Database.sqliteConnection`) with the same SQL either way, and the connection's own checks.
struct RawStatement: ~Copyable {
    /// A value bound to one `?` of the statement.
    enum Value { case text(String), real(Double), integer(Int) }

    /// SQLite copies bound text before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private let handle: OpaquePointer
    private let statement: OpaquePointer

    init(_ sql: String, on handle: OpaquePointer) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let statement = prepared else {
            sqlite3_finalize(prepared)
            throw CacheConnection.error(code, handle)
        }
        self.handle = handle
        self.statement = statement
    }

    deinit { sqlite3_finalize(statement) }

    /// Steps through every row the statement (with no parameters) returns, reading each with `read`.
    func rows<Row>(_ read: (OpaquePointer) -> Row) throws -> [Row] {
        defer { sqlite3_reset(statement) }
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw CacheConnection.error(code, handle) }
            rows.append(read(statement))
        }
    }

    /// Runs the statement once with `values` bound in order, one for each `?`.
    func run(_ values: Value...) throws {
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        guard values.count == Int(sqlite3_bind_parameter_count(statement)) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(values.count) values for \(sqlite3_bind_parameter_count(statement)) parameters")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let bound = switch value {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .integer(let number): sqlite3_bind_int64(statement, index, Int64(number))
            }
            guard bound == SQLITE_OK else { throw CacheConnection.error(bound, handle) }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw CacheConnection.error(code, handle) }
    }
}
