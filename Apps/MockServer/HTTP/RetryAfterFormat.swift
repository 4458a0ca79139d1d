import Foundation
import HTTPFields

/// The form of `Retry-After` (RFC 9110 §10.2.3) in 429 and 503 answers: a number of seconds
/// (`120`) or an HTTP date (`Fri, 07 Nov 2025 08:49:37 GMT`). Clients must handle both.
public enum RetryAfterFormat: String, Sendable, CaseIterable {
    /// Whole seconds, rounded up so that waiting that long is always enough.
    case seconds
    /// The IMF-fixdate of the moment, rounded up to the next whole second.
    case httpDate = "http-date"

    /// The header value for a wait of `wait` starting `now`.
    func value(after wait: Duration, from now: Date) -> String {
        switch self {
        case .seconds: String(Self.wholeSeconds(wait))
        case .httpDate: HTTPDate.format(Self.moment(after: wait, from: now))
        }
    }

    /// `now + wait`, rounded up to a whole second: by then the wait is surely over.
    static func moment(after wait: Duration, from now: Date) -> Date {
        Date(timeIntervalSince1970: (now.timeIntervalSince1970 + wait.seconds).rounded(.up))
    }

    /// `wait` in whole seconds, rounded up.
    static func wholeSeconds(_ wait: Duration) -> Int {
        Int(wait.seconds.rounded(.up))
    }
}
