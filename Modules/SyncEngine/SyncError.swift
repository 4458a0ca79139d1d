import Foundation
import HTTPCache

/// Why a sync stopped. Pages written before the failure stay written, and the next sync
/// resumes at the page that failed. Every case names the URL it is about.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered a page with an error status that is not retried.
    case httpStatus(code: Int, url: String, message: String?)
    /// Retries ran out, or the server asked for a longer wait than allowed; `status` is the
    /// last error status, `nil` when the network failed.
    case gaveUp(url: String, reason: String, status: Int?, retryAfter: Duration? = nil)
    /// What came back is not HTTP (a garbage reply, a body its encoding cannot decode).
    case badReply(url: String, reason: String)
    /// A page's body is not JSON (or not UTF-8).
    case invalidJSON(url: String, detail: String)
    /// A page is JSON but cannot be mirrored: no items, an item that is not an object, a
    /// missing or repeated key, a next-page member that is not a URL.
    case invalidPage(url: String, detail: String)
    /// A key the pass already saw on an earlier page.
    case duplicateKey(url: String, key: String, pageIndex: Int, earlierPageIndex: Int)
    /// The origin could not be reached.
    case offline(url: String, reason: String)
    /// The next-page link of page `pageIndex` leads to a URL this pass fetched already.
    case loop(url: String, pageIndex: Int)
    /// Pages kept coming back empty while still pointing onward.
    case emptyPages(url: String, count: Int)
    /// Pages kept listing only items earlier pages of the pass listed (a server that ignores the
    /// page parameter, or a listing that moves as fast as it is read).
    case repeatingPages(url: String, count: Int)
    /// A page is larger than the limit.
    case pageTooLarge(url: String, limit: Int)
    /// `--name` names a collection of another URL.
    case nameTaken(name: String, url: String)
    /// Several collections mirror the URL; `--name` must choose.
    case ambiguousCollection(url: String, names: [String])
    /// No collection has that name.
    case unknownCollection(name: String)

    public var description: String {
        switch self {
        case .httpStatus(let code, let url, let message):
            "server answered \(code) for \(url)" + (message.map { ": \($0)" } ?? "")
        case .gaveUp(let url, let reason, _, _): "gave up on \(url): \(reason)"
        case .badReply(let url, let reason): "the reply from \(url) is not valid HTTP: \(reason)"
        case .invalidJSON(let url, let detail): "the page at \(url) is not valid JSON: \(detail)"
        case .invalidPage(let url, let detail): "the page at \(url) cannot be mirrored: \(detail)"
        case .duplicateKey(let url, let key, let pageIndex, let earlier):
            "page \(pageIndex + 1) (\(url)) lists key \(key), which page \(earlier + 1) of this pass already listed: "
                + "the collection changed while it was read, or the key is not unique (choose one with --key); the next sync starts a new pass"
        // The reason is the network's own ("cannot reach the server: connection refused", "timed out after 10 s").
        case .offline(let url, let reason): "\(reason) (\(url))"
        case .loop(let url, let pageIndex): "page \(pageIndex + 1) points back to \(url), which this pass already fetched; stopping to avoid a loop"
        case .emptyPages(let url, let count): "\(count) empty pages in a row still point onward (last \(url)); stopping to avoid a loop"
        case .repeatingPages(let url, let count):
            "\(count) pages in a row listed only items earlier pages listed (last \(url)): the server may ignore the page parameter (check --paginate), or the listing grows as fast as it is read; stopping to avoid a loop"
        case .pageTooLarge(let url, let limit): "the page at \(url) is larger than \(limit) bytes (--max-page-size)"
        case .nameTaken(let name, let url): "collection '\(name)' mirrors \(url); choose another --name (or 'fresh rm \(name)')"
        case .ambiguousCollection(let url, let names):
            // Said by its name, which also works where --name cannot be given (--input-file, --all).
            "several collections mirror \(url) (\(names.joined(separator: ", "))); sync one by its name, such as 'fresh sync \(names.first ?? "NAME")'"
        case .unknownCollection(let name): "no collection is called '\(name)' (see 'fresh collections')"
        }
    }
}

/// One line for any error the engine can raise, and whether it means "offline".
public enum ErrorDescription {
    /// Every error of the engine and the modules below it says itself in one line.
    public static func line(_ error: any Error) -> String { "\(error)" }

    /// `error`'s line as a store keeps it (a collection's last error): U+0000 from a server's
    /// text, which a PostgreSQL text cannot hold and a read of SQLite text ends at, written as
    /// the escape a terminal is shown for it (`\u{0}`), so nothing after it is lost.
    public static func storedLine(_ error: any Error) -> String { line(error).replacingOccurrences(of: "\u{0}", with: "\\u{0}") }

    public static func isOffline(_ error: any Error) -> Bool {
        switch error {
        // A give-up with a wait (a rate limit's hold) is the server's answer, not the network failing.
        case SyncError.offline, SyncError.gaveUp(_, _, nil, nil): true
        case TransportError.unreachable, TransportError.timedOut: true
        default: false
        }
    }
}
