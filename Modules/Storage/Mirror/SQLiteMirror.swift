import DedicatedThreads
import Foundation
import GRDB
import MirrorStore
import StorageErrors
import Synchronization

/// The mirror in a local SQLite file (`data.sqlite`): the embedded ``MirrorStore``, and the
/// source of truth of a workstation's collections. It keeps the guarantees ``MirrorStore`` lists
/// (whole pages), and a page whose content did not change is not rewritten; tables: ``MirrorSchema``.
///
/// Commits are not flushed to the disk one by one (`synchronous = NORMAL` in WAL mode): a
/// killed process loses nothing committed, and a power cut can lose only the last commits,
/// which the next sync fetches again; the file stays consistent either way. A damaged file
/// is never moved, rebuilt or written to: see ``MirrorCheck``.
///
/// Speed, skippable on a first reading: pages are written on a thread of their own below the
/// process's priority (``onWriterThread(_:)``), their items upserted through SQLite's own API
/// (`ItemUpsert.swift`), and the write-ahead log copied back in the background (``Checkpointer``).
public final class SQLiteMirror: MirrorStore {
    public let path: String
    /// Whether the file was opened without write access (a reader of a read-only directory).
    public let isReadOnly: Bool
    /// The connections reads go through, read-only: opening them waits for no other process.
    let readers: DatabasePool
    /// The pool writes go through, opened by the first write (``writerPool()``): a reader shows its
    /// first frame without waiting for the check or the lock a writer's open may need.
    private let writer: Mutex<DatabasePool?>
    /// Whether the file must be checked before its first write (see ``VerifiedState``), as it
    /// was when the mirror opened.
    private let checkBeforeWriting: Bool
    let checkpointer: Checkpointer
    /// The thread page writes run on, made by the first and stopped with the mirror.
    private let writerThread = Mutex<BackgroundThread?>(nil)

    /// How much lower than the process the page writer runs (Linux thread niceness).
    static let writerNiceness: Int32 = 5

    /// The tables whose first rows an open reads (see ``DatabaseFile/openPool(at:migrator:probeTables:busyTimeout:readOnly:)``).
    private static let probeTables = ["collection", "page", "item"]

    /// Opens (creating if needed) the mirror at `path`, migrating an older schema; `readOnly`
    /// writes nothing (no migration, no new file), for a reader of a read-only directory.
    ///
    /// A file with the current schema is opened for reading only, which takes no lock; the first
    /// write opens the writer (checking the file first when a writer left it unclosed). A new
    /// file, or one of an older schema, is created or migrated at once.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        isReadOnly = readOnly
        checkpointer = Checkpointer(path: path)
        if readOnly {
            readers = try DatabaseFile.openPool(at: path, migrator: MirrorSchema.migrator, probeTables: Self.probeTables, readOnly: true)
            writer = Mutex(nil)
            checkBeforeWriting = false
            return
        }
        try DamageMarker.refuseIfMarked(path)
        checkBeforeWriting = VerifiedState.needsCheck(path)
        if let current = try DatabaseFile.openReaders(at: path, migrator: MirrorSchema.migrator, probeTables: Self.probeTables,
                                                      reportingAs: path) {
            readers = current
            writer = Mutex(nil)
        } else {
            writer = Mutex(try Self.openWriter(at: path, checkFirst: checkBeforeWriting))
            readers = try DatabaseFile.openPool(at: path, migrator: MirrorSchema.migrator, probeTables: Self.probeTables, readOnly: true)
        }
    }

    /// The pool writes go through, opened (checked, migrated, in WAL mode) by the first call. A
    /// read-only mirror's writes go to its readers, and fail as a read-only file's do.
    func writerPool() throws -> DatabasePool {
        if isReadOnly { return readers }
        return try writer.withLock { writer in
            if let writer { return writer }
            let opened = try Self.openWriter(at: path, checkFirst: checkBeforeWriting)
            writer = opened
            return opened
        }
    }

    private static func openWriter(at path: String, checkFirst: Bool) throws -> DatabasePool {
        if checkFirst { try VerifiedState.check(path) }
        return try DatabaseFile.openPool(at: path, migrator: MirrorSchema.migrator, probeTables: probeTables)
    }

    /// The mirror at `path` for commands that only read it: opened read-only when it was found
    /// damaged (so it can still be read) or its directory cannot be written.
    public static func openForReading(path: String) throws -> SQLiteMirror {
        let directory = PathComponents.parent(of: path)
        if FileManager.default.fileExists(atPath: path) && (DamageMarker.isMarked(path) || access(directory, W_OK) != 0) {
            return try SQLiteMirror(path: path, readOnly: true)
        }
        return try SQLiteMirror(path: path)
    }

    public var location: String { path }

    deinit { writerThread.withLock { $0?.stop() } }

    /// Runs `body` on the page writer's thread (see ``writerNiceness``).
    func onWriterThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let thread = writerThread.withLock { thread in
            let made = thread ?? BackgroundThread(name: "fresh.writer", loweredBy: Self.writerNiceness)
            thread = made
            return made
        }
        return try await thread.run(body)
    }

    public func lock(collection identity: String, onWait: @escaping @Sendable (String?) -> Void) async throws -> any CollectionLock {
        try await FileCollectionLock.acquire(identity: identity, beside: path, onWait: onWait)
    }

    public func watchChanges() throws -> any ChangeWatch { try ChangeWatcher(path: path) }

    /// Copies the write-ahead log back into the file (unless another process is reading it),
    /// closes the connections, and records the file as sound for the next writer (see
    /// ``VerifiedState``). Nothing may use the mirror afterwards.
    public func close() async {
        checkpointer.close()
        do {
            let opened = writer.withLock { $0 }
            // A pool closes its writer before its readers, so no close of its own would copy the
            // log back: a read-only connection cannot.
            if let opened {
                _ = try await opened.writeWithoutTransaction { try $0.checkpoint(.truncate) }
                try opened.close()
            }
            try readers.close()
            // Unless the file was left unchecked: nothing wrote, so nothing checked it.
            if !isReadOnly && (opened != nil || !checkBeforeWriting) { VerifiedState.record(path) }
        } catch {
            // The log is busy, or a connection still in use: the file stays as it is until the
            // process ends, and the next writer checks it once.
        }
    }

    /// Runs a write, turning its errors into ``StorageError``s; damage found while writing
    /// marks the file (see ``DamageMarker``) so no later run writes to it. A duplicate key
    /// found by ``PageWriter`` passes through as it is.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            return try writerPool().write(updates)
        } catch let found as DuplicateKey {
            throw found
        } catch {
            throw failure(error)
        }
    }

    /// Runs a read, turning its errors into ``StorageError``s.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        do { return try readers.read(value) } catch { throw failure(error) }
    }

    /// Runs one statement as a ``write(_:)`` of its own.
    func execute(_ sql: String, _ arguments: StatementArguments) throws {
        try write { try $0.execute(sql: sql, arguments: arguments) }
    }

    private func failure(_ error: any Error) -> StorageError {
        if StorageError.isDamage(error) { DamageMarker.mark(path, reason: DatabaseFile.message(of: error)) }
        return DatabaseFile.classify(error, path: path)
    }
}
