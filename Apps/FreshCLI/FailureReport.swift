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
        case is StorageError, is OutputError: 6
        case CacheError.notStored: 7
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
            let interrupted = error is CancellationError || (error as? TransportError) == .cancelled
            let line = interrupted ? "interrupted; everything written before stays written"
                : (error as? OutputError).map(\.description) ?? ErrorDescription.line(error)
            StandardError.write("fresh: \(TerminalText.sanitized(line))")
            throw ExitCode(exitCode(for: error))
        }
    }
}

/// Writing to stderr, one line at a time.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
