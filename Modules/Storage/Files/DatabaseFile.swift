import CSQLiteOptions
import Foundation
import GRDB
import StorageErrors

/// Opens SQLite files the way both databases want them: parent directory created (0700),
/// the file created with mode 0600 before SQLite sees it, WAL, and a busy timeout so several
/// `fresh` processes can share a file without "database is locked".
enum DatabaseFile {
    static let defaultBusyTimeout: TimeInterval = 10
    /// The page size of a new file unless its opener asks for another: 16 KiB, so a page of JSON
    /// or a response body takes a few WAL frames (one write each) rather than a dozen.
    static let pageSize = 16 * 1024
    static let walAutocheckpointBytes = 16 * 1024 * 1024
    static let cacheKibibytes = 8 * 1024
    /// The page cache of each of a pool's readers (up to five): they read windows of rows and
    /// single pages, and five at 8 MiB held a reader that scrolled a million items at 80 MiB.
    static let readerCacheKibibytes = 2 * 1024

    /// Opens a pool (concurrent readers beside one writer), brings the schema up to date, and reads
    /// the first row of each of `probeTables` (what that finds: docs/http-caching.md §9). A row count
    /// would find more damage, but reads every leaf: tens of milliseconds per open of a full cache.
    ///
    /// The first open of a new file (WAL and migrations) holds a `flock` on a sidecar `.lock` file:
    /// GRDB's migrator checks and applies migrations in separate steps, so two processes creating
    /// one database could both create the tables. (SQLite's own POSIX record locks are on the
    /// database file, which the sidecar never touches.)
    ///
    /// With `readOnly`, nothing is created or migrated: the file must exist with the current schema.
    static func openPool(
        at path: String, migrator: DatabaseMigrator, probeTables: [String],
        busyTimeout: TimeInterval = defaultBusyTimeout, readOnly: Bool = false
    ) throws -> DatabasePool {
        if readOnly { return try openReadOnly(at: path, migrator: migrator, probeTables: probeTables, busyTimeout: busyTimeout) }
        return try openMigrated(at: path, migrator: migrator, probeTables: probeTables,
                                pageSize: pageSize, extraPragmas: [], busyTimeout: busyTimeout) {
            try DatabasePool(path: path, configuration: $0)
        }
    }

    /// Process-wide SQLite settings, applied before the first database opens: no memory
    /// statistics (a global lock on every allocation SQLite makes, for numbers nothing reads).
    private static let processSettings: Void = {
        _ = fresh_sqlite3_skip_memory_statistics()
    }()

    /// Applies the process-wide settings, for a connection opened without GRDB.
    static func applyProcessSettings() { processSettings }

    /// The settings every connection to a file applies when it opens; `pageSize` is that of a new file.
    static func pragmas(pageSize: Int) -> [String] { [
        // On a new file, before WAL mode. An existing file keeps its size.
        "PRAGMA page_size = \(pageSize)",
        // Safe from corruption in WAL mode; a power cut may lose the last commits (why: ``SQLiteMirror``).
        "PRAGMA synchronous = NORMAL",
        // The writer's own checkpoint (copy the WAL back and wait for the disk twice) every 16 MiB
        // of WAL, not every 4 MiB: a sync writes tens of megabytes, and each wait costs ~10 ms. Not
        // every 32 MiB either: the log file keeps the largest size it reached, and the last close,
        // which truncates it, frees its pages: 10–14 ms of a sync's end at 32 MiB, half at 16.
        "PRAGMA wal_autocheckpoint = \(walAutocheckpointBytes / pageSize)",
        // Room for a transaction of several pages of items without spilling to the log early.
        "PRAGMA cache_size = -\(cacheKibibytes)",
        // Statement journals and sorts in memory, not in files created and deleted in /var/tmp.
        "PRAGMA temp_store = MEMORY",
    ] }

    private static func openReadOnly(
        at path: String, migrator: DatabaseMigrator, probeTables: [String], busyTimeout: TimeInterval
    ) throws -> DatabasePool {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError.cannotOpen(path: path, reason: "no such file (nothing has been synced there yet)")
        }
        guard let pool = try openReaders(at: readOnlyLocation(of: path), migrator: migrator, probeTables: probeTables,
                                         busyTimeout: busyTimeout, reportingAs: path) else {
            throw StorageError.cannotOpen(path: path, reason: "it was written by an older fresh; open it once with write access to upgrade it")
        }
        return pool
    }

    /// Opens a pool of read-only connections to an existing file whose schema is current; `nil`
    /// when the file is missing or its schema is not current (a writer must create or migrate it).
    ///
    /// Opening it takes no lock: a pool that may write sets up WAL mode with a transaction of its
    /// own when the log is empty (GRDB's `DatabasePool`), which waits for any other process's
    /// write, and then the first frame of a reader would wait for another process's sync.
    static func openReaders(
        at location: String, migrator: DatabaseMigrator, probeTables: [String],
        busyTimeout: TimeInterval = defaultBusyTimeout, reportingAs path: String
    ) throws -> DatabasePool? {
        processSettings
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = configuration(busyTimeout: busyTimeout, pageSize: pageSize, extraPragmas: [])
        configuration.readonly = true
        do {
            let pool = try DatabasePool(path: location, configuration: configuration)
            let current = try pool.read { db in
                guard try migrator.hasCompletedMigrations(db) else { return false }
                for table in probeTables { _ = try Int.fetchOne(db, sql: "SELECT 1 FROM \(table) LIMIT 1") }
                return true
            }
            if !current { try pool.close() }
            return current ? pool : nil
        } catch {
            throw classify(error, path: path)
        }
    }

    /// How every connection to a file opens: a busy timeout and ``pragmas(pageSize:)`` (then `extraPragmas`),
    /// a read-only connection with the smaller cache of ``readerCacheKibibytes``.
    private static func configuration(busyTimeout: TimeInterval, pageSize: Int, extraPragmas: [String]) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let pragmas = Self.pragmas(pageSize: pageSize) + extraPragmas
        configuration.prepareDatabase { db in
            for pragma in pragmas { try db.execute(sql: pragma) }
            if db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(readerCacheKibibytes)") }
        }
        return configuration
    }

    /// Where SQLite opens `path` read-only. A WAL database needs its `-shm` file, which SQLite
    /// creates on open; in a directory that cannot be written and has none (the last writer
    /// closed cleanly), the file is opened as immutable instead: nobody can be writing to it.
    static func readOnlyLocation(of path: String) -> String {
        let directory = PathComponents.parent(of: path)
        guard access(directory, W_OK) != 0, !FileManager.default.fileExists(atPath: path + "-shm") else { return path }
        var components = URLComponents()
        components.scheme = "file"
        components.path = path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        return components.string ?? path
    }

    /// Opens one WAL connection, for a database whose reads are single short statements: a
    /// lookup then skips the pool's reader checkout, which costs more than the read itself.
    /// `extraPragmas` run after ``pragmas(pageSize:)`` on the connection.
    static func openQueue(
        at path: String, migrator: DatabaseMigrator, probeTables: [String],
        pageSize: Int, extraPragmas: [String] = [], busyTimeout: TimeInterval = defaultBusyTimeout
    ) throws -> DatabaseQueue {
        try openMigrated(at: path, migrator: migrator, probeTables: probeTables,
                         pageSize: pageSize, extraPragmas: extraPragmas, busyTimeout: busyTimeout) {
            let queue = try DatabaseQueue(path: path, configuration: $0)
            // WAL is set once, on a new file (under the open's lock). Not GRDB's `journalMode = .wal`,
            // which writes a transaction on every open that finds no WAL file (docs/performance.md).
            try queue.writeWithoutTransaction { db in
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw StorageError.cannotOpen(path: path, reason: "SQLite refused WAL mode")
                }
            }
            return queue
        }
    }

    private static func openMigrated<Writer: DatabaseWriter>(
        at path: String, migrator: DatabaseMigrator, probeTables: [String],
        pageSize: Int, extraPragmas: [String], busyTimeout: TimeInterval, make: (Configuration) throws -> Writer
    ) throws -> Writer {
        processSettings
        let directory = PathComponents.parent(of: path)
        if let problem = directoryProblem(directory) { throw StorageError.cannotOpen(path: path, reason: problem) }
        try createIfMissing(path)
        let lock = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw StorageError.cannotOpen(path: path + ".lock", reason: String(cString: strerror(errno)))
        }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        do {
            let writer = try make(configuration(busyTimeout: busyTimeout, pageSize: pageSize, extraPragmas: extraPragmas))
            try migrator.migrate(writer)
            try writer.read { db in
                for table in probeTables { _ = try Int.fetchOne(db, sql: "SELECT 1 FROM \(table) LIMIT 1") }
            }
            return writer
        } catch {
            throw classify(error, path: path)
        }
    }

    /// Creates the database file (mode 0600) when it does not exist. An existing file is checked
    /// without being opened: closing a descriptor of it would drop this process's POSIX locks on it,
    /// SQLite's included, and another process could then take away the WAL of a connection this one
    /// has open (the cache's lookup connection, when GRDB's queue opens beside it).
    private static func createIfMissing(_ path: String) throws {
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        var status = stat()
        let problem = errno != EEXIST ? errno
            : stat(path, &status) != 0 ? errno
            : status.st_mode & S_IFMT == S_IFDIR ? EISDIR
            : access(path, R_OK | W_OK) != 0 ? errno : 0
        if problem != 0 { throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(problem))) }
    }

    /// Whether an error means the file is not a usable SQLite database.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    static func classify(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        if isCorruption(error) { return .corrupted(path: path, reason: message(of: error)) }
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_CANTOPEN?, .SQLITE_READONLY?, .SQLITE_PERM?: return .cannotOpen(path: path, reason: message(of: error))
        case .SQLITE_FULL?, .SQLITE_IOERR?: return .cannotWrite(path: path, reason: message(of: error))
        default: return .failed(message(of: error))
        }
    }

    static func message(of error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    /// Creates `directory` (0700) with its parents, or says in words why it cannot be.
    private static func directoryProblem(_ directory: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue { return nil }
        var ancestor = directory
        while ancestor != "/" && ancestor != "." && !FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory) {
            ancestor = PathComponents.parent(of: ancestor)
        }
        if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "\(ancestor) is a file, not a directory"
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return nil
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { String(cString: strerror(Int32($0.code))) } ?? "permission denied or read-only file system"
            return "cannot create directory \(directory): \(reason)"
        }
    }
}
