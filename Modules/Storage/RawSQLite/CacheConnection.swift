import CSQLiteOptions
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The cache file's own SQLite connection, beside GRDB's: the one query every lookup runs, and
/// the batched bookkeeping writes (use times, statistics, the headers of 304s).
///
/// A hit never opens GRDB: a ready file is opened with this connection alone
/// (``openReady(at:migrations:probeTables:pragmas:busyTimeout:)``), and the lookup is a prepared
/// statement behind a mutex, outside a transaction (docs/http-caching.md §9). Closing never
/// checkpoints the WAL: the owner decides when it is copied back (``CacheDatabase/keptWALBytes``).
final class CacheConnection: Sendable {
    private struct Connection: ~Copyable {
        let handle: OpaquePointer
        let lookup: OpaquePointer

        deinit {
            sqlite3_finalize(lookup)
            sqlite3_close_v2(handle)
        }
    }

    private let connection: Mutex<Connection>
    /// The file this connection opened (device and inode), to tell whether the path still names it.
    private let file: (device: UInt64, inode: UInt64)?
    private let busyTimeout: TimeInterval

    /// Bodies at least this large are left out of the `SELECT` and read with ``BlobReader``.
    static let largeBody = 16 * 1024

    private static let lookupSQL = """
        SELECT e.variantKey, e.url, e.method, e.status, e.headers,
               CASE WHEN length(b.body) < \(largeBody) THEN b.body ELSE x'' END,
               e.requestTime, e.responseTime, e.size, e.lastAccess, e.bodyID, length(b.body) >= \(largeBody),
               e.omittedLength, e.omittedDigest
        FROM cacheEntry e JOIN cacheBody b ON b.id = e.bodyID WHERE e.key = ?
        """

    /// Opens a connection to the database at `path`, which exists with the current schema.
    init(path: String, pragmas: [String], busyTimeout: TimeInterval) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle = opened else {
            defer { sqlite3_close_v2(opened) }
            throw Self.error(code, opened)
        }
        _ = fresh_sqlite3_keep_wal_on_close(handle)
        file = Self.identity(of: path)
        self.busyTimeout = busyTimeout
        do {
            sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
            for pragma in pragmas { try Self.execute(pragma, on: handle) }
            var statement: OpaquePointer?
            let prepared = sqlite3_prepare_v3(handle, Self.lookupSQL, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard prepared == SQLITE_OK, let statement else { throw Self.error(prepared, handle) }
            connection = Mutex(Connection(handle: handle, lookup: statement))
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// A connection to `path` when the file can be used as it is (writable, WAL, exactly
    /// `migrations` applied, the first row of each of `probeTables` readable, as the full open
    /// probes), `nil` when it needs ``DatabaseFile``'s full open (docs/http-caching.md §9).
    static func openReady(at path: String, migrations: [String], probeTables: [String], pragmas: [String],
                          busyTimeout: TimeInterval) -> CacheConnection? {
        guard let connection = try? CacheConnection(path: path, pragmas: pragmas, busyTimeout: busyTimeout) else { return nil }
        let ready = connection.connection.withLock { opened -> Bool in
            let handle = opened.handle
            guard sqlite3_db_readonly(handle, "main") == 0,
                  (try? texts("PRAGMA journal_mode", on: handle)) == ["wal"],
                  let applied = try? texts("SELECT identifier FROM grdb_migrations", on: handle),
                  Set(applied) == Set(migrations), applied.count == migrations.count else { return false }
            return probeTables.allSatisfy { (try? texts("SELECT 1 FROM \($0) LIMIT 1", on: handle)) != nil }
        }
        return ready ? connection : nil
    }

    /// Whether `path` still names the file this connection opened (another process may have
    /// moved a damaged file aside and created a new one there).
    func isStill(at path: String) -> Bool {
        guard let file, let current = Self.identity(of: path) else { return false }
        return current == file
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        return stat(path, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
    }

    /// Every stored variant of `key`, newest response first: sorted here, not by an SQL `ORDER BY`,
    /// which would copy every body through SQLite's sorter (docs/http-caching.md §9).
    func variants(forKey key: String) throws -> [CacheEntryRecord] {
        try connection.withLock { connection in
            let statement = connection.lookup
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            sqlite3_bind_text(statement, 1, key, -1, RawStatement.transient)
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
                    size: Int(sqlite3_column_int64(statement, 8)), lastAccess: sqlite3_column_double(statement, 9),
                    omittedLength: sqlite3_column_type(statement, 12) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, 12)),
                    omittedDigest: sqlite3_column_type(statement, 13) == SQLITE_NULL ? nil : Self.text(statement, 13))
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

    /// Runs `work` in one write transaction (`BEGIN IMMEDIATE`, so it never fails halfway on a
    /// file changed under a read), committed when `work` returns and rolled back when it throws.
    /// While another connection writes, it retries up to the busy timeout, the connection free for
    /// lookups between attempts: SQLite's busy handler would hold it (and every lookup) throughout.
    func write(_ work: (OpaquePointer) throws -> Void) throws {
        let deadline = Date(timeIntervalSinceNow: busyTimeout)
        var pause: useconds_t = 1000
        while true {
            let written = try connection.withLock { connection -> Bool in
                let handle = connection.handle
                sqlite3_busy_timeout(handle, 0)
                let began = sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
                sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
                if began == SQLITE_BUSY && Date() < deadline { return false }
                guard began == SQLITE_OK else { throw Self.error(began, handle) }
                do {
                    try work(handle)
                    try Self.execute("COMMIT", on: handle)
                } catch {
                    try? Self.execute("ROLLBACK", on: handle)
                    throw error
                }
                return true
            }
            if written { return }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// Copies the WAL into the file and empties it, waiting at most `wait` seconds for readers.
    func emptyWAL(waitingAtMost wait: TimeInterval) throws {
        try connection.withLock { connection in
            sqlite3_busy_timeout(connection.handle, Int32(wait * 1000))
            try Self.execute("PRAGMA wal_checkpoint(TRUNCATE)", on: connection.handle)
        }
    }

    // MARK: SQL

    private static func execute(_ sql: String, on handle: OpaquePointer) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, handle) }
    }

    /// The first column of every row `sql` returns, as text.
    private static func texts(_ sql: String, on handle: OpaquePointer) throws -> [String] {
        try RawStatement(sql, on: handle).rows { text($0, 0) }
    }

    static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
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
