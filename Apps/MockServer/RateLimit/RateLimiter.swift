import Foundation
import HTTPTypes
import Synchronization

/// `--rate-limit`: admits API requests through a ``SlidingWindow`` shared by all connections,
/// answers the rest with 429 and an exact `Retry-After`, and tells every admitted request how
/// much is left (`X-RateLimit-Limit`, `-Remaining`, `-Reset`, as GitHub sends them).
final class RateLimiter: Sendable {
    private let window: Mutex<SlidingWindow>
    private let limit: RateLimit
    private let retryAfterFormat: RetryAfterFormat
    private let clock = ContinuousClock()

    init(limit: RateLimit, retryAfterFormat: RetryAfterFormat) {
        self.limit = limit
        self.window = Mutex(SlidingWindow(limit: limit))
        self.retryAfterFormat = retryAfterFormat
    }

    /// Counts one request: the rate-limit headers its answer carries, and the 429 that answer
    /// is when the request is refused.
    func admit() -> (headers: HTTPFields, refusal: APIError?) {
        let admission = window.withLock { $0.admit(at: clock.now) }
        let now = Date()
        switch admission {
        case .admitted(let remaining, let resetIn):
            return (headers(remaining: remaining, reset: resetIn, from: now), nil)
        case .refused(let retryAfter):
            let refusal = APIError.rateLimited(
                message: "rate limit of \(limit) exceeded; retry in \(RetryAfterFormat.wholeSeconds(retryAfter)) s",
                retryAfter: retryAfterFormat.value(after: retryAfter, from: now))
            return (headers(remaining: 0, reset: retryAfter, from: now), refusal)
        }
    }

    /// Forgets every admission (part of `/_admin/reset`).
    func clear() {
        window.withLock { $0.clear() }
    }

    /// The rate-limit headers: the limit, what is left, and when the next slot frees (`now + reset`
    /// in whole seconds since 1970, rounded up).
    private func headers(remaining: Int, reset: Duration, from now: Date) -> HTTPFields {
        let resetTime = Int(RetryAfterFormat.moment(after: reset, from: now).timeIntervalSince1970)
        return [.xRateLimitLimit: String(limit.requests), .xRateLimitRemaining: String(remaining), .xRateLimitReset: String(resetTime)]
    }
}

extension HTTPField.Name {
    /// Requests allowed per window.
    static let xRateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    /// Requests still allowed in the current window.
    static let xRateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    /// When the next slot frees, in seconds since 1970 (UTC).
    static let xRateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
