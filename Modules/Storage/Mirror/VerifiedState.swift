import Foundation
import StorageErrors

/// How the mirror's file looked when a writer of this program last closed it sound (the
/// ``stamp(_:)`` of `data.sqlite` and of its WAL), kept in `data.sqlite.verified`.
///
/// A writer opening the file compares it with that record. When they differ (another program
/// wrote to the file, a disk or a crash damaged it, or a writer of ours was killed before it
/// closed), `PRAGMA quick_check` reads the whole file once before anything is written: SQLite
/// itself finds damage only on the pages a statement happens to read, so a sync could otherwise
/// write into a file whose other pages are scribbled over. After a clean close, nothing is read.
enum VerifiedState {
    static func recordPath(for path: String) -> String { path + ".verified" }

    /// Checks the file at `path` before a writer opens it (when ``needsCheck(_:)`` said so).
    /// - Throws: ``StorageError/corrupted(path:reason:)`` when the check finds damage.
    static func check(_ path: String) throws {
        let problems = try MirrorCheck.findProblems(at: path, check: "quick_check(10)")
        guard problems == ["ok"] else { throw StorageError.corrupted(path: path, reason: MirrorCheck.oneLine(problems)) }
    }

    /// Whether the file at `path` exists and is not as the last clean close left it.
    static func needsCheck(_ path: String) -> Bool { current(path).map { $0 != recorded(path) } ?? false }

    /// Records the file at `path` as sound as it is now (after the last connection closed).
    static func record(_ path: String) {
        guard let now = current(path) else { return }
        let record = recordPath(for: path)
        // Best effort: without a record, the next writer checks the file once more.
        if FileManager.default.createFile(atPath: record + ".new", contents: Data(now.utf8), attributes: [.posixPermissions: 0o600]) {
            _ = rename(record + ".new", record)
        }
    }

    /// The file's state, `nil` when it does not exist yet (a new file has nothing to check).
    private static func current(_ path: String) -> String? {
        guard let file = stamp(path) else { return nil }
        return "\(file) wal \(stamp(path + "-wal") ?? "none")\n"
    }

    private static func recorded(_ path: String) -> String? {
        FileManager.default.contents(atPath: recordPath(for: path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Device, inode, size, and the times of the last change to the file's data and to its inode
    /// (nanoseconds) of the file at `path`. The inode's time cannot be set back: a program that
    /// writes into the file and restores its modification time still changes the stamp.
    private static func stamp(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev) \(status.st_ino) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
            + " \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)"
    }
}
