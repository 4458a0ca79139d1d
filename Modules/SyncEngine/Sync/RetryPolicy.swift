import Foundation
import HTTPFields

/// When a failed page request is tried again, and after how long.
///
/// - 429 and 503 wait for their `Retry-After` (seconds or an HTTP date), else back off;
/// - other 5xx and transient network failures (refused, reset, timed out, cut short) back off
///   exponentially with jitter: 1 s, 2 s, 4 s, … times a random factor in 0.5…1;
/// - every wait is bounded by ``maximumWait``: a server asking for longer stops the sync
///   (it resumes at that page next time);
/// - a page is tried at most ``retries`` times more.
public struct RetryPolicy: Sendable, Equatable {
    public var retries: Int
    public var maximumWait: Duration
    /// The first backoff, doubled for each further attempt.
    public var initialBackoff: Duration
    /// What the user knows ``maximumWait`` as, in the message of a wait too long.
    public var maximumWaitName: String

    public init(retries: Int = 3, maximumWait: Duration = .seconds(120), initialBackoff: Duration = .seconds(1),
                maximumWaitName: String = "--max-wait") {
        self.retries = max(0, retries)
        self.maximumWait = maximumWait
        self.initialBackoff = initialBackoff
        self.maximumWaitName = maximumWaitName
    }

    /// What went wrong with one attempt.
    public enum Failure: Sendable, Equatable {
        /// An error status, with the `Retry-After` field when there was one.
        case status(Int, retryAfter: String?)
        /// The network failed in a way worth another try.
        case transient(String)
    }

    /// The decision for a failed attempt.
    public enum Decision: Sendable, Equatable {
        /// Wait this long, then try again; `reason` says why, for the user.
        case retry(after: Duration, reason: String)
        /// Give up: not retryable, out of retries, or the server asks for too long a wait.
        case stop(reason: String)
    }

    /// Whether a response status is worth retrying at all.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (500...599).contains(status) && status != 501
    }

    /// Decides what to do after attempt number `attempt` (1 for the first) failed.
    /// - Parameters:
    ///   - now: for a `Retry-After` given as a date.
    ///   - random: a number in 0..<1 for the jitter (tests pass a fixed one).
    public func decide(after failure: Failure, attempt: Int, now: Date = Date(), random: Double) -> Decision {
        let what: String
        var requested: Duration?
        switch failure {
        case .status(let code, let retryAfter):
            guard Self.isRetryable(status: code) else { return .stop(reason: "status \(code) is not retried") }
            what = "status \(code)"
            if let retryAfter, [429, 503].contains(code) { requested = Self.delay(retryAfter: retryAfter, now: now) }
        case .transient(let reason): what = reason
        }
        guard attempt <= retries else {
            return .stop(reason: "\(what) after \(attempt) attempt\(attempt == 1 ? "" : "s") (--retries \(retries))")
        }
        if let requested {
            guard requested <= maximumWait else {
                return .stop(reason: "\(what): the server asks to wait \(requested.formattedSeconds), longer than \(maximumWaitName) \(maximumWait.formattedSeconds)")
            }
            return .retry(after: requested, reason: "\(what), Retry-After \(requested.formattedSeconds)")
        }
        let exponent = min(attempt - 1, 20)
        let backoff = initialBackoff * (1 << exponent)
        let jittered = backoff * (0.5 + 0.5 * min(max(random, 0), 1))
        return .retry(after: min(jittered, maximumWait), reason: "\(what), backing off")
    }

    /// The wait a `Retry-After` value asks for (RFC 9110 §10.2.3): delay-seconds or an HTTP
    /// date; `nil` when it is neither.
    static func delay(retryAfter: String, now: Date) -> Duration? {
        let text = retryAfter.trimmingWhitespace()
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}
