import Foundation
import HTTPTypes
import Synchronization

/// `--rate-limit`: admits API requests through a ``SlidingWindow`` shared by all connections,
/// answers the rest with 429 (or 403, as GitHub answers a spent primary limit:
/// `--rate-limit-status 403`) and an exact `Retry-After`, and tells every admitted request how
/// much is left in the fields `--rate-limit-fields` names (``RateLimitFields``).
final class RateLimiter: Sendable {
    private let window: Mutex<SlidingWindow>
    private let limit: RateLimit
    private let refusalStatus: Int
    private let fields: RateLimitFields
    private let retryAfterFormat: RetryAfterFormat
    private let clock = ContinuousClock()

    init(limit: RateLimit, refusalStatus: Int = 429, fields: RateLimitFields = .standard, retryAfterFormat: RetryAfterFormat) {
        self.limit = limit
        self.window = Mutex(SlidingWindow(limit: limit))
        self.refusalStatus = refusalStatus
        self.fields = fields
        self.retryAfterFormat = retryAfterFormat
    }

    /// Counts one request: the rate-limit fields its answer carries, and the refusal that answer
    /// is when the request is refused.
    func admit() -> (headers: HTTPFields, refusal: APIError?) {
        let admission = window.withLock { $0.admit(at: clock.now) }
        let now = Date()
        switch admission {
        case .admitted(let remaining, let resetIn):
            return (stated(remaining: remaining, reset: resetIn, from: now), nil)
        case .refused(let retryAfter):
            let refusal = APIError.rateLimited(
                status: refusalStatus,
                message: "API rate limit of \(limit) exceeded; retry in \(RetryAfterFormat.wholeSeconds(retryAfter)) s",
                retryAfter: fields.contains(.retryAfter) ? retryAfterFormat.value(after: retryAfter, from: now) : nil)
            return (stated(remaining: 0, reset: retryAfter, from: now), refusal)
        }
    }

    /// Forgets every admission (part of `/_admin/reset`).
    func clear() {
        window.withLock { $0.clear() }
    }

    /// The stated fields: the limit, what is left, and when the next slot frees (`now + reset`,
    /// in whole seconds, rounded up).
    private func stated(remaining: Int, reset: Duration, from now: Date) -> HTTPFields {
        let resetTime = Int(RetryAfterFormat.moment(after: reset, from: now).timeIntervalSince1970)
        return fields.stating(limit, remaining: remaining, resetIn: RetryAfterFormat.wholeSeconds(reset), resetTime: resetTime)
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
