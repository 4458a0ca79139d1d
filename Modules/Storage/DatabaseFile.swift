import Foundation
import GRDB

/// Opens SQLite files the way both databases want them: parent directory created (0700),
/// the file created with mode 0600 before SQLite sees it, WAL, and a busy timeout so several
/// `fresh` processes can share a file without "database is locked".
enum DatabaseFile {
    static func openPool(at path: String, busyTimeout: TimeInterval = 10) throws -> DatabasePool {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError.cannotOpen(path: path, reason: Self.reason(error, fallback: "cannot create directory \(directory)"))
        }
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        do {
            return try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw classify(error, path: path)
        }
    }

    /// Whether an error means the file is not a usable SQLite database.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    static func classify(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        if isCorruption(error) { return .corrupted(path: path, reason: message(of: error)) }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_PERM {
            return .cannotOpen(path: path, reason: message(of: error))
        }
        return .failed(message(of: error))
    }

    static func message(of error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }

    private static func reason(_ error: any Error, fallback: String) -> String {
        let description = (error as NSError).localizedDescription
        return description.isEmpty ? fallback : "\(fallback): \(description)"
    }
}
