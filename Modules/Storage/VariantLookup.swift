import Foundation
import GRDB
import CSQLiteOptions
import GRDBSQLite
import Synchronization

/// The one query every cache lookup runs, on a connection of its own beside GRDB's.
///
/// GRDB owns the cache database: migrations, writes, maintenance. A lookup is a single indexed
/// `SELECT`, and going through GRDB's serialized queue (a `DispatchQueue.sync`, a statement
/// cursor, a `Row` per result) costs more than the read itself; here it is a prepared statement
/// behind a mutex. The statement runs outside a transaction (one `SELECT` is atomic on its own)
/// and sees every committed write, from this process or another, as WAL readers do.
final class VariantLookup: Sendable {
    private struct Connection: ~Copyable {
        let handle: OpaquePointer
        let statement: OpaquePointer

        deinit {
            sqlite3_finalize(statement)
            sqlite3_close_v2(handle)
        }
    }

    private let connection: Mutex<Connection>

    /// Bodies at least this large are left out of the `SELECT` and read with ``BlobReader``.
    static let largeBody = 16 * 1024

    private static let sql = """
        SELECT e.variantKey, e.url, e.method, e.status, e.headers,
               CASE WHEN length(b.body) < \(largeBody) THEN b.body ELSE x'' END,
               e.requestTime, e.responseTime, e.size, e.lastAccess, e.bodyID, length(b.body) >= \(largeBody)
        FROM cacheEntry e JOIN cacheBody b ON b.id = e.bodyID WHERE e.key = ?
        """

    /// Opens a second connection to the (already migrated) database at `path`.
    init(path: String, busyTimeout: TimeInterval) throws {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let handle else {
            defer { sqlite3_close_v2(handle) }
            throw Self.error(opened, handle)
        }
        sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(handle, Self.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            defer { sqlite3_close_v2(handle) }
            throw Self.error(prepared, handle)
        }
        connection = Mutex(Connection(handle: handle, statement: statement))
    }

    /// Makes closing this connection leave the WAL as it is (see ``CacheDatabase/keptWALBytes``).
    func keepWALOnClose() {
        connection.withLock { _ = fresh_sqlite3_keep_wal_on_close($0.handle) }
    }

    /// Every stored variant of `key`, newest response first. Sorted here, not by SQL: an
    /// `ORDER BY` without an index copies every row, body included, through SQLite's sorter,
    /// and a key has a handful of variants at most.
    func variants(forKey key: String) throws -> [CacheEntryRecord] {
        try connection.withLock { connection in
            let statement = connection.statement
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            sqlite3_bind_text(statement, 1, key, -1, Self.transient)
            var records: [CacheEntryRecord] = []
            while true {
                let stepped = sqlite3_step(statement)
                if stepped == SQLITE_DONE { break }
                guard stepped == SQLITE_ROW else { throw Self.error(stepped, connection.handle) }
                var record = CacheEntryRecord(
                    key: key, variantKey: Self.text(statement, 0), url: Self.text(statement, 1),
                    method: Self.text(statement, 2), status: Int(sqlite3_column_int64(statement, 3)),
                    headers: Self.text(statement, 4), body: Self.blob(statement, 5),
                    requestTime: sqlite3_column_double(statement, 6), responseTime: sqlite3_column_double(statement, 7),
                    size: Int(sqlite3_column_int64(statement, 8)), lastAccess: sqlite3_column_double(statement, 9))
                if sqlite3_column_int64(statement, 11) != 0 {
                    record.body = try BlobReader.read(connection.handle, table: "cacheBody", column: "body",
                                                      rowID: sqlite3_column_int64(statement, 10))
                }
                records.append(record)
            }
            records.sort { $0.responseTime > $1.responseTime }
            return records
        }
    }

    // MARK: Columns

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    private static func blob(_ statement: OpaquePointer, _ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    static func error(_ code: Int32, _ handle: OpaquePointer?) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: handle.map { String(cString: sqlite3_errmsg($0)) })
    }
}
