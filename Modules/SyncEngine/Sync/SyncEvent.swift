import Foundation
import HTTPCache
import MirrorStore

/// What a sync reports while it runs, for `-v`, the progress line and the reader's status.
public enum SyncEvent: Sendable {
    /// A new collection was created for the URL.
    case created(name: String)
    /// The pages are read this way (detected from the first page, or as stored).
    case plan(String)
    /// Another process is syncing the collection; this one waits for it (`holder`: who, when known).
    case waitingForLock(holder: String?)
    /// An unfinished pass continues at this page.
    case resumed(pageIndex: Int)
    /// A page was fetched and stored (or found unchanged).
    case page(PageEvent)
    /// A failed request is retried after a wait.
    case retrying(url: URL, after: Duration, reason: String, attempt: Int, of: Int)
    /// Requests to an origin wait at its gate (an `OriginGate.HoldReason`), said once per wait.
    case waitingAtGate(url: URL, for: Duration, reason: String)
    /// Headers are not sent to a page on another origin.
    case droppedHeaders(url: URL)
    /// Something the user should know about how the pass ended.
    case notice(String)
    /// The listing moved while the pass read it, and what the catch-up found (said once, at the end).
    case listingMoved(String)
    /// The run stopped before the end of its pass (an error, an interruption): how far it got.
    case stopped(SyncSummary)
}

/// One page as `-v` shows it.
public struct PageEvent: Sendable {
    public var index: Int
    public var url: URL
    public var decision: CacheDecision
    public var items: Int
    /// Whether its content was already stored (nothing written).
    public var unchanged: Bool
    /// New and changed items (none when unchanged).
    public var write: PageWrite
    /// The run's totals so far, for a progress line.
    public var summary: SyncSummary
}
