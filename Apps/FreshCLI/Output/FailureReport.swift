import ArgumentParser
import CommandLaunch
import Foundation
import HTTPCache
import MirrorStore
import NamedSources
import Pacing
import Storage
import StorageErrors
import StoreAddress
import SyncEngine
import SyncOrchestration
import Synchronization
import TerminalText

/// Turns any error into one line on stderr and a documented exit status (see `fresh --help`).
enum FailureReport {
    static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case let stopped as SyncStopped: exitCode(for: stopped.underlying)
        case is CancellationError, TransportError.cancelled: 130
        case _ where ErrorDescription.isOffline(error): 3
        case SyncError.httpStatus, SyncError.gaveUp, is PacingError: 4
        case TransportError.certificate: 10
        case TransportError.truncated, TransportError.invalidResponse, SyncError.badReply, SyncError.invalidJSON, SyncError.invalidPage,
             SyncError.duplicateKey, SyncError.loop, SyncError.emptyPages, SyncError.repeatingPages, SyncError.pageTooLarge,
             CacheError.unexpectedNotModified, CacheError.tooManyRedirects, CacheError.unfollowableRedirect: 5
        case is StorageError, is FileError: 6
        case CacheError.notStored, is NothingStored: 7
        case SyncError.nameTaken, SyncError.ambiguousCollection, SyncError.unknownCollection, is UnknownSyncTarget: 64
        case SourceError.cannotAccess: 6
        case is SourceError, is AddressError, is HeaderArgument.Unexpandable: 64
        // An argument found invalid once the work started (a URL listed by --input-file).
        case is ValidationError: 64
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
            // A query's own database error (a page damaged after opening) is a storage failure.
            let failure = StorageError.fromQuery(error) ?? error
            let line = switch failure {
            case is CancellationError, TransportError.cancelled: "interrupted; everything written before stays written"
            default: ErrorDescription.line(failure)
            }
            StandardError.write("fresh: \(line)")
            throw ExitCode(exitCode(for: failure))
        }
    }
}

/// A subcommand whose `run()` is its ``execute()`` inside ``FailureReport/run(_:)``: any error
/// it throws ends it as one line on stderr and a documented exit status.
protocol FreshSubcommand: AsyncParsableCommand {
    func execute() async throws
}

extension FreshSubcommand {
    func run() async throws { try await FailureReport.run { try await execute() } }
}

/// Writing to stderr, one line at a time. `-s` silences notes and errors, `-s -S` notes only
/// (as curl's `--silent` and `--show-error` do); `-v` lines are never silenced.
enum StandardError {
    enum Silence: UInt8, AtomicRepresentable { case none, notes, everything }

    static let silence = Atomic<Silence>(.none)

    /// An error: the command's last line.
    static func write(_ line: String) {
        guard silence.load(ordering: .relaxed) != .everything else { return }
        writeAlways(line)
    }

    /// A warning or a notice beside a result.
    static func note(_ line: String) {
        guard silence.load(ordering: .relaxed) == .none else { return }
        writeAlways(line)
    }

    /// Writes `line`, its control characters and bidi overrides escaped: a message may quote
    /// what a server sent (an URL, a reason phrase, an error body).
    /// A stderr that cannot take it loses the line; nothing else can say so.
    static func writeAlways(_ line: String) {
        _ = StandardOutput.writeAll(Data((TerminalText.sanitized(RedactedPassword.hidden(in: line)) + "\n").utf8), to: STDERR_FILENO)
    }
}
