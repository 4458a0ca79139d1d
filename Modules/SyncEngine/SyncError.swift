import Foundation
import HTTPCache
import Storage

/// Why a sync stopped. Pages written before the failure stay written.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered a page with an error status.
    case httpStatus(code: Int, url: String, message: String?)
    /// A page's body is not the JSON the contract describes.
    case invalidJSON(url: String, detail: String)
    /// The origin could not be reached; the cache would have answered, but a sync is a
    /// conversation with the origin.
    case offline(url: String, reason: String)
    /// The server repeated a cursor, which would loop forever.
    case cursorLoop(cursor: String)

    public var description: String {
        switch self {
        case .httpStatus(let code, let url, let message):
            "server answered \(code) for \(url)" + (message.map { ": \($0)" } ?? "")
        case .invalidJSON(let url, let detail): "response from \(url) is not valid page JSON: \(detail)"
        case .offline(let url, let reason): "cannot reach the server for \(url): \(reason)"
        case .cursorLoop(let cursor): "server returned cursor \(cursor) twice; stopping to avoid a loop"
        }
    }
}

/// One line for any error the engine can raise, and whether it means "offline".
public enum ErrorDescription {
    public static func line(_ error: any Error) -> String {
        switch error {
        case let error as SyncError: error.description
        case let error as TransportError: error.description
        case let error as CacheError: error.description
        case let error as StorageError: error.description
        default: "\(error)"
        }
    }

    public static func isOffline(_ error: any Error) -> Bool {
        switch error {
        case SyncError.offline: true
        case TransportError.unreachable, TransportError.timedOut: true
        default: false
        }
    }
}
