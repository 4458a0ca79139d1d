import Foundation
import HTTPCache
import MirrorStore

/// What one sync did and cost, counted from the cache decisions of its pages and the writes.
public struct SyncSummary: Sendable, Equatable, Codable {
    public var collection = ""
    /// Pages fetched by this run.
    public var pages = 0
    /// Pages of this run written to the mirror (or found stored already): fewer than ``pages``
    /// while the writer is behind, and when a page could not be read.
    public var pagesWritten = 0
    /// The page (from 1) after the last one this run wrote: where an unfinished pass goes on
    /// from (a revisit writes from the first page again, so this is not a count of pages).
    public var pageAfterLastWritten: Int?
    /// Items on those pages.
    public var items = 0
    /// Items the collection did not have, items whose JSON changed, items deleted at the end of
    /// the pass because no page lists them any more.
    public var created = 0
    public var changed = 0
    public var removed = 0
    /// Requests that went over the network (retries included).
    public var requests = 0
    /// Pages answered with a full response, with a 304, from a fresh cache entry, or from a
    /// stale one (a policy or `stale-if-error` allowed it).
    public var fullResponses = 0
    public var notModified = 0
    public var freshHits = 0
    public var staleServed = 0
    /// Pages whose content was already stored, so nothing was written for them.
    public var unchangedPages = 0
    /// Body bytes received over the network, as sent (compressed when the server compressed).
    public var bytesReceived = 0
    /// Those bodies once decoded (gzip, deflate, br, zstd): the JSON the pages hold.
    public var bytesDecoded = 0
    /// Body bytes the cache supplied instead of the network.
    public var bytesSaved = 0
    /// Failed requests tried again.
    public var retries = 0
    /// Seconds the run's requests waited, in all and by reason: ``backoff`` after a failure, or
    /// at the gate for a rate limit (`Retry-After`, `rate limit`, `unstated rate limit`).
    public var secondsWaited = 0.0
    public var secondsWaitedFor: [String: Double] = [:]
    /// The page (from 1, as messages number them) at which this run resumed an unfinished pass.
    public var resumedAtPage: Int?
    /// Pages read again (conditionally) from the first at the pass's end: a resumed pass's, or
    /// those of a listing named by position before it removes what no page listed.
    public var revisitedPages = 0
    /// Whether the pass reached the last page (it did unless the run was stopped).
    public var complete = false
    /// Items a stopped pass had set aside (its pages no longer listed them) and put back, after the
    /// last page it read: the next sync starts the pass over (``PassWriting/putBackSetAside(of:)``).
    public var itemsPutBack = 0
    /// Why the last page is the last.
    public var endReason: String?
    /// Whether the items, having no key member, are keyed by a hash of their content.
    public var keyedByContent = false
    /// Items a later page of the pass listed again, the listing having moved while it was read (kept once).
    public var repeatedItems = 0
    /// The pages read again from the first after such a pass, and the items they brought that
    /// the pass had not listed (added at the front while it was read).
    public var caughtUpPages = 0
    public var caughtUpItems = 0
    /// `PARAM=VALUE` of an incremental run (`--since`): what changed since VALUE merged, nothing removed.
    public var incremental: String?
    /// Why the mirror may hold less than the server has although the pass ended (`PartialMirror`).
    public var partial: [String] = []
    public var seconds = 0.0
    /// The collection's current item count when the run ended.
    public var totalItems = 0
    /// Why the run stopped, when it failed (the line `fresh sync` says on stderr).
    public var error: String?

    public init() {}

    /// The reason of a wait after a failure, by exponential backoff.
    public static let backoff = "backoff"

    /// Counts a wait of `duration` for `reason`.
    mutating func wait(_ duration: Duration, for reason: String) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        secondsWaited += seconds
        secondsWaitedFor[reason, default: 0] += seconds
    }

    /// Counts one page's response; `storedLength`: the body a response from the cache stands for.
    mutating func count(_ response: CachedResponse, storedLength: Int?) {
        let decision = response.decision
        pages += 1
        requests += decision.requestsSent
        bytesReceived += decision.bytesReceived
        if decision.bytesReceived > 0 { bytesDecoded += response.body.count }
        if decision.bytesReceived == 0 { bytesSaved += storedLength ?? decision.bytesSaved }
        switch decision.outcome {
        case .freshHit: freshHits += 1
        case .staleServed: staleServed += 1
        case .revalidated: notModified += 1
        case .downloaded, .replaced, .bypassed, .unsatisfiable: fullResponses += 1
        }
    }

    /// Counts a response the walk did not use (a page asked ahead of a change): its requests,
    /// among the line's "more", and the bytes it brought.
    mutating func countUnused(_ response: CachedResponse) {
        requests += response.decision.requestsSent
        bytesReceived += response.decision.bytesReceived
        if response.decision.bytesReceived > 0 { bytesDecoded += response.body.count }
    }

    /// Counts page `index` written (or found stored already) with its `items`, and what the write
    /// changed; an unfinished pass goes on from the page after it.
    mutating func countWritten(page index: Int, items: Int, _ write: PageWrite) {
        pagesWritten += 1
        pageAfterLastWritten = index + 2
        self.items += items
        created += write.created
        changed += write.changed
        repeatedItems += write.repeated
    }

    /// The line `fresh sync` prints:
    /// `synced posts: 5 pages, 100 items (3 new, 1 changed, 2 removed); 5 requests: 1 × 200, 4 × 304, 0 fresh hits; 1702 bytes received (10512 decoded), 42048 bytes saved`
    public var line: String {
        let how = incremental.map { " incrementally (\($0))" } ?? ""
        var text = "synced \(collection)\(how): \(Plural.count(pages, "page")), \(Plural.count(totalItems, "item")) "
            + "(\(created) new, \(changed) changed, " + (incremental == nil ? "\(removed) removed" : "nothing removed") + "); "
            + "\(Plural.count(requests, "request")): \(fullResponses) × 200, \(notModified) × 304, \(Plural.count(freshHits, "fresh hit"))"
        if staleServed > 0 { text += ", \(staleServed) stale" }
        // Requests no page is counted for: failed tries, guesses ahead that were discarded, a 404 past the end.
        let unpaged = requests - fullResponses - notModified
        if unpaged > 0 { text += ", \(unpaged) more (retried, guessed ahead or past the last page)" }
        text += "; \(Plural.count(bytesReceived, "byte")) received"
        if bytesDecoded != bytesReceived { text += " (\(bytesDecoded) decoded)" }
        text += ", \(Plural.count(bytesSaved, "byte")) saved"
        if keyedByContent { text += "; items keyed by content hash (no key member)" }
        if repeatedItems > 0 {
            text += "; the listing moved: \(Plural.count(repeatedItems, "item")) seen twice, "
                + "\(Plural.count(caughtUpPages, "page")) caught up (\(caughtUpItems) new)"
        }
        if retries > 0 { text += "; \(Plural.count(retries, "retry", "retries"))" }
        if secondsWaited > 0 {
            let reasons = secondsWaitedFor.sorted { $0.value > $1.value }.map { "\($0.key) \(String(format: "%.1f", $0.value)) s" }
            text += "; waited \(String(format: "%.1f", secondsWaited)) s (\(reasons.joined(separator: ", ")))"
        }
        if let resumedAtPage {
            text += "; resumed at page \(resumedAtPage)"
            if revisitedPages > 0 { text += ", then \(Plural.count(revisitedPages, "page")) revalidated from the first" }
        } else if revisitedPages > 0 {
            text += "; \(Plural.count(revisitedPages, "page")) read again to confirm what no page listed"
        }
        return text
    }
}

/// "1 page", "2 pages".
public enum Plural {
    public static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
    }
}
