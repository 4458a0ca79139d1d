import Foundation

/// A stored response judged at one moment: its age, lifetime, and what that allows.
public struct StoredResponseEvaluation: Sendable, Equatable {
    public var entry: StoredResponse { didSet { stored = entry.cacheControl } }
    public var currentAge: Int
    public var lifetime: FreshnessLifetime
    /// `entry.cacheControl`, parsed once: every judgement below reads it.
    private var stored: CacheControl

    public init(entry: StoredResponse, now: Date) {
        self.entry = entry
        self.stored = entry.cacheControl
        self.currentAge = CurrentAge.of(entry, now: now)
        self.lifetime = FreshnessLifetime.of(entry, cacheControl: stored)
    }

    /// Fresh: `freshness_lifetime > current_age` (RFC 9111 §4.2).
    public var isFresh: Bool { lifetime.seconds > currentAge }
    /// Seconds of freshness left (negative when stale).
    public var remaining: Int { lifetime.seconds - currentAge }
    /// Seconds past the lifetime (0 when fresh).
    public var staleness: Int { max(0, -remaining) }

    /// One sentence: "fresh for 42 s more: max-age=60, age=18" or "stale by 5 s: …". Built
    /// with plain appends: every hit's decision carries it.
    public var summary: String {
        var text = isFresh ? "fresh for " : "stale by "
        text.reserveCapacity(64)
        text += String(isFresh ? remaining : staleness)
        text += isFresh ? " s more: " : " s: "
        switch lifetime.source {
        case .maxAge: text += "max-age="; text += String(lifetime.seconds)
        case .expires: text += "Expires − Date = "; text += String(lifetime.seconds); text += " s"
        case .heuristic: text += "heuristic 10% of (Date − Last-Modified) = "; text += String(lifetime.seconds); text += " s"
        case .invalidMaxAge: text += "invalid max-age (treated as 0)"
        case .invalidExpires: text += "invalid Expires (treated as already expired)"
        case .none: text += "no explicit freshness"
        }
        text += ", age="
        text += String(currentAge)
        return text
    }

    /// Whether the stored response may answer without contacting the origin, given the
    /// request's directives (RFC 9111 §4.2, §5.2.1), and the reason either way.
    public func servesWithoutValidation(request: CacheControl) -> (Bool, String) {
        if stored.noCache { return (false, "response has no-cache: must revalidate before every use") }
        if request.noCache { return (false, "request has no-cache: must revalidate") }
        if let maxAge = request.maxAge, currentAge > maxAge {
            return (false, "request max-age=\(maxAge) but age=\(currentAge)")
        }
        if let minFresh = request.minFresh, remaining < minFresh {
            return (false, "request min-fresh=\(minFresh) but only \(max(0, remaining)) s of freshness left")
        }
        if isFresh { return (true, summary) }
        if let maxStale = request.maxStale, !stored.mustRevalidate, maxStale.accepts(staleness: staleness) {
            return (true, "\(summary); request max-stale accepts it")
        }
        return (false, summary)
    }

    /// Whether `stale-while-revalidate` lets this stale response answer while it refreshes.
    public var allowsStaleWhileRevalidate: Bool {
        guard !isFresh, !stored.mustRevalidate, !stored.noCache,
              let window = stored.staleWhileRevalidate else { return false }
        return staleness <= window
    }

    /// The server errors `stale-if-error` covers (RFC 5861 §4); a 501 is a final answer.
    public static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Whether `stale-if-error` (from the response or the request) lets this stale response
    /// answer after a server error (one of ``staleIfErrorStatuses``) or a network failure.
    public func allowsStaleIfError(request: CacheControl) -> Bool {
        guard !stored.mustRevalidate, !stored.noCache else { return false }
        let window = max(stored.staleIfError ?? -1, request.staleIfError ?? -1)
        return window >= 0 && staleness <= window
    }

    /// Whether this response may be served when the origin cannot be reached at all.
    /// `must-revalidate` and `no-cache` forbid it (RFC 9111 §4.2.4, §5.2.2.2).
    public var allowsOfflineUse: (Bool, String) {
        if stored.mustRevalidate && !isFresh { return (false, "must-revalidate forbids serving it stale") }
        if stored.noCache { return (false, "no-cache forbids serving it without revalidation") }
        return (true, "stale responses may be served when the origin is unreachable (RFC 9111 §4.2.4)")
    }
}
