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
    let pool: DatabasePool
    let checkpointer: Checkpointer
    /// The thread page writes run on, made by the first and stopped with the mirror.
    private let writerThread = Mutex<BackgroundThread?>(nil)

    /// How much lower than the process the page writer runs (Linux thread niceness).
    static let writerNiceness: Int32 = 5

    /// Opens (creating if needed) the mirror at `path`, migrating an older schema; `readOnly`
    /// writes nothing (no migration, no new file), for a reader of a read-only directory.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        isReadOnly = readOnly
        if !readOnly {
            try DamageMarker.refuseIfMarked(path)
            try VerifiedState.checkBeforeWriting(path)
        }
        checkpointer = Checkpointer(path: path)
        pool = try DatabaseFile.openPool(at: path, migrator: MirrorSchema.migrator,
                                         probeTables: ["collection", "page", "item"], readOnly: readOnly)
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
            let made = thread ?? BackgroundThread(name: "fresh.writer", priority: .lowered(by: Self.writerNiceness))
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
            // The pool closes its writer before its readers, so no close of its own would
            // copy the log back: a read-only connection cannot.
            if !isReadOnly { _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) } }
            try pool.close()
            if !isReadOnly { VerifiedState.record(path) }
        } catch {
            // The log is busy, or a connection still in use: the file stays as it is until the
            // process ends, and the next writer checks it once.
        }
    }

    public func problems() throws -> [String] {
        let found = try MirrorCheck.problems(at: path)
        return found == ["ok"] ? [] : found
    }

    /// Runs a write, turning its errors into ``StorageError``s; damage found while writing
    /// marks the file (see ``DamageMarker``) so no later run writes to it. A duplicate key
    /// found by ``PageWriter`` passes through as it is.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            return try pool.write(updates)
        } catch let found as DuplicateKey {
            throw found
        } catch {
            throw failure(error)
        }
    }

    /// Runs a read, turning its errors into ``StorageError``s.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        do { return try pool.read(value) } catch { throw failure(error) }
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
