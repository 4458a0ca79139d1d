import Foundation

/// A response that says a rate limit refused its request, and so how long its origin must be
/// left alone. What counts, and the wait each asks for:
/// - a 429, 503 or 403 with `Retry-After`: that long;
/// - a 403 or 429 whose stated budget is spent (`X-RateLimit-Remaining: 0`, `RateLimit: …;r=0`):
///   until the stated reset;
/// - a 403 or 429 whose message names a rate limit but states no wait (GitHub's secondary
///   limits): at least a minute, doubled each time it happens again (GitHub's advice).
///
/// Any other 403 is a refusal of another kind (a permission), never retried.
public enum Refusal: Sendable, Equatable, CustomStringConvertible {
    /// `Retry-After` said how long.
    case retryAfter(Duration)
    /// The stated budget is spent; it resets after this long (`nil`: not stated).
    case spentBudget(resetIn: Duration?)
    /// A limit that states nothing (GitHub's secondary rate limits).
    case unstatedLimit

    /// The refusal `status`, `limit` and `body` make, or `nil` when they make none.
    public static func of(status: Int, limit: StatedLimit, body: Data) -> Refusal? {
        guard [403, 429, 503].contains(status) else { return nil }
        if let wait = limit.retryAfter { return .retryAfter(wait) }
        guard status != 503 else { return nil }
        if limit.isSpent { return .spentBudget(resetIn: limit.resetIn) }
        // GitHub's "secondary rate limit" says so in the body's first kilobytes.
        return String(decoding: body.prefix(4096), as: UTF8.self).lowercased().contains("rate limit") ? .unstatedLimit : nil
    }

    public var description: String {
        switch self {
        case .retryAfter(let wait): "Retry-After \(wait.formattedSeconds)"
        case .spentBudget: "the stated rate limit is spent"
        case .unstatedLimit: "a rate limit that states no wait"
        }
    }
}
