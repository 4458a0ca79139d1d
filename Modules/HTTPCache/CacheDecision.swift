/// What the cache did with one request, and why. Every response from ``CachingClient``
/// carries one; `fresh get -v` and `fresh explain` print it.
public struct CacheDecision: Sendable, Equatable {
    /// The kind of answer.
    public enum Outcome: Sendable, Equatable {
        /// A fresh stored response answered; no request was sent.
        case freshHit
        /// A stale stored response answered, for the given reason.
        case staleServed(StaleReason)
        /// A conditional request got 304; the stored body answered and its freshness renewed.
        case revalidated
        /// A conditional request got a full response, which replaced the stored one.
        case replaced
        /// The response came from the origin, and is not one a stored response was replaced by:
        /// nothing usable was stored, or what came is not stored (a 503 to a conditional request).
        case downloaded
        /// The policy or the request skipped the cache; the response came from the origin.
        case bypassed
        /// Nothing usable was stored and the network was not allowed (`only-if-cached`,
        /// `must-revalidate` while offline): a 504 was generated.
        case unsatisfiable
    }

    /// Why a stale response was served.
    public enum StaleReason: Sendable, Equatable {
        /// `stale-while-revalidate`: a background revalidation was started.
        case whileRevalidating
        /// The origin answered with a server error; `stale-if-error` allowed the stored one.
        case onError(status: Int)
        /// The origin could not be reached.
        case offline(String)
        /// The request accepted it (`max-stale`, or a `returnCacheData…` policy).
        case acceptedByRequest
    }

    public var outcome: Outcome
    /// Whether the response (or the refreshed entry) is now stored.
    public var stored: Bool
    /// Why the response was not stored, when it was not.
    public var notStoredReason: String?
    /// Age of the stored response when it was judged, in seconds.
    public var currentAge: Int?
    /// Freshness lifetime of the stored response when it was judged.
    public var freshnessLifetime: FreshnessLifetime?
    /// Requests this answer sent over the network (0 for a hit; more with redirects).
    public var requestsSent: Int
    /// Body bytes received over the network.
    public var bytesReceived: Int
    /// Body bytes served from storage instead of the network.
    public var bytesSaved: Int
    /// Sentences naming the rules that decided, in order.
    public var reasons: [String]
    /// Whether the origin could not be reached (see ``isOffline``, ``isUnreachableWithoutUsableData``).
    public var originUnreachable = false
    /// The network failure behind an answer from storage or a 504, when there was one: a
    /// slow server (`timedOut`) is told apart from one that cannot be reached.
    public var networkFailure: TransportError?

    public init(
        outcome: Outcome, stored: Bool = false, notStoredReason: String? = nil,
        currentAge: Int? = nil, freshnessLifetime: FreshnessLifetime? = nil,
        requestsSent: Int = 0, bytesReceived: Int = 0, bytesSaved: Int = 0, reasons: [String] = []
    ) {
        self.outcome = outcome
        self.stored = stored
        self.notStoredReason = notStoredReason
        self.currentAge = currentAge
        self.freshnessLifetime = freshnessLifetime
        self.requestsSent = requestsSent
        self.bytesReceived = bytesReceived
        self.bytesSaved = bytesSaved
        self.reasons = reasons
    }

    /// A short label: `fresh hit`, `revalidated (304)`, `downloaded`, …
    public var label: String {
        switch outcome {
        case .freshHit: "fresh hit"
        case .staleServed(.whileRevalidating): "stale served while revalidating"
        case .staleServed(.onError(let status)): "stale served on error \(status)"
        case .staleServed(.offline): "offline: served from storage"
        case .staleServed(.acceptedByRequest): "stale served (accepted by request)"
        case .revalidated: "revalidated (304)"
        case .replaced: "replaced (a full response to a conditional request)"
        case .downloaded: "downloaded"
        case .bypassed: "bypassed"
        case .unsatisfiable: "unsatisfiable (504)"
        }
    }

    /// Whether the origin could not be reached and stored data answered instead.
    public var isOffline: Bool {
        if case .staleServed(.offline) = outcome { return true }
        return false
    }

    /// A 504 the cache made because the origin was unreachable and nothing stored could be used.
    public var isUnreachableWithoutUsableData: Bool { outcome == .unsatisfiable && originUnreachable }

    /// The label, the reasons and whether the response was stored, as lines for `-v`.
    public var explanation: [String] {
        var lines = [label] + reasons
        if let notStoredReason { lines.append("not stored: \(notStoredReason)") }
        return lines
    }

    mutating func add(_ reason: String) { reasons.append(reason) }
}
