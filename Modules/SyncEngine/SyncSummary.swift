import HTTPCache

/// What one sync cost, counted from the cache decisions of its pages.
public struct SyncSummary: Sendable, Equatable {
    public var pages = 0
    public var items = 0
    /// Requests that went over the network.
    public var requestsSent = 0
    /// Pages answered with a full 200 response.
    public var fullResponses = 0
    /// Pages revalidated with a 304.
    public var notModified = 0
    /// Pages answered from a fresh cache entry, with no request.
    public var freshHits = 0
    /// Pages answered from a stale cache entry (a policy or `stale-if-error` allowed it).
    public var staleServed = 0
    /// Stored posts deleted because the server no longer lists them.
    public var deleted = 0
    /// Body bytes received over the network.
    public var bytesReceived = 0
    /// Body bytes the cache supplied instead of the network.
    public var bytesSaved = 0

    public init() {}

    mutating func count(_ response: CachedResponse, items: Int) {
        pages += 1
        self.items += items
        let decision = response.decision
        requestsSent += decision.requestsSent
        bytesReceived += decision.bytesReceived
        bytesSaved += decision.bytesSaved
        switch decision.outcome {
        case .freshHit: freshHits += 1
        case .staleServed: staleServed += 1
        case .revalidated: notModified += 1
        case .downloaded, .replaced, .bypassed, .unsatisfiable: fullResponses += 1
        }
    }

    /// The one summary line `fresh sync` prints.
    public var line: String {
        "synced \(pages) pages (\(items) items): \(requestsSent) requests sent, \(fullResponses) × 200, "
            + "\(notModified) × 304, \(freshHits) fresh hits, \(bytesReceived) body bytes received, \(bytesSaved) bytes saved"
            + (staleServed > 0 ? ", \(staleServed) stale pages served" : "")
            + (deleted > 0 ? ", \(deleted) posts deleted" : "")
    }
}
