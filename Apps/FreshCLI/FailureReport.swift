import ArgumentParser
import Foundation
import HTTPCache
import Storage
import SyncEngine

/// Turns any error into one line on stderr and a documented exit status (see `fresh --help`).
enum FailureReport {
    static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case is CancellationError: 130
        case TransportError.cancelled: 130
        case TransportError.unreachable, TransportError.timedOut, SyncError.offline: 3
        case SyncError.httpStatus: 4
        case TransportError.truncated, SyncError.invalidJSON, SyncError.cursorLoop, CacheError.unexpectedNotModified, CacheError.tooManyRedirects: 5
        case is StorageError, is InputError, is OutputError: 6
        case _ where StorageError.fromQuery(error) != nil: 6
        case CacheError.notStored, is NothingStored: 7
        default: 1
        }
    }

    /// Runs `body`; on failure prints `fresh: <line>` on stderr and exits with the status.
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardError.write("fresh: \(TerminalText.sanitized(line(for: error)))")
            throw ExitCode(exitCode(for: error))
        }
    }

    private static func line(for error: any Error) -> String {
        switch error {
        case is CancellationError, TransportError.cancelled: "interrupted; everything written before stays written"
        case let error as OutputError: error.description
        case let error as InputError: error.description
        case let error as NothingStored: error.description
        default: StorageError.fromQuery(error)?.description ?? ErrorDescription.line(error)
        }
    }
}

/// Writing to stderr, one line at a time.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
