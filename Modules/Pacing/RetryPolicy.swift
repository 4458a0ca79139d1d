import Foundation

/// When a failed request is tried again, and after how long: one set of rules for `fresh get
/// --retry` and for every page of a sync.
///
/// - a refusal by a rate limit (``Refusal``) waits as long as the ``OriginGate`` holds the origin;
/// - other 429s and 5xx, and transient network failures (refused, reset, timed out, cut short),
///   back off exponentially with jitter: 1 s, 2 s, 4 s, … times a random factor in 0.5…1;
/// - a request is tried at most ``retries`` times more, each wait bounded by ``maximumWait``: a
///   server asking for longer stops the request (a sync resumes at that page next time).
public struct RetryPolicy: Sendable, Equatable {
    public var retries: Int
    public var maximumWait: Duration
    /// The first backoff, doubled for each further attempt.
    public var initialBackoff: Duration
    /// What the user knows ``maximumWait`` as, in the message of a wait too long.
    public var maximumWaitName: String
    /// Whether a server that cannot be reached at all (connection refused, no such host) is
    /// tried again; a screen that says "offline" at once and tries later does not.
    public var retriesUnreachable: Bool

    public init(retries: Int = 3, maximumWait: Duration = .seconds(120), initialBackoff: Duration = .seconds(1),
                maximumWaitName: String = "--max-wait", retriesUnreachable: Bool = true) {
        self.retries = max(0, retries)
        self.maximumWait = maximumWait
        self.initialBackoff = initialBackoff
        self.maximumWaitName = maximumWaitName
        self.retriesUnreachable = retriesUnreachable
    }

    /// What went wrong with one attempt.
    public enum Failure: Sendable, Equatable {
        /// An error status that no rate limit explains.
        case status(Int)
        /// A rate limit refused the request (see ``Refusal``); the origin is held for `wait`.
        case limited(status: Int, refusal: Refusal, wait: Duration)
        /// The network failed in a way worth another try.
        case transient(String)
        /// The server could not be reached at all (refused, no such host).
        case unreachable(String)
    }

    /// The decision for a failed attempt.
    public enum Decision: Sendable, Equatable {
        /// Wait this long, then try again; `reason` says why, for the user.
        case retry(after: Duration, reason: String)
        /// Give up: not retryable, out of retries, or the server asks for too long a wait.
        case stop(reason: String)
    }

    /// Whether an error status that no rate limit explains is worth retrying at all.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || status == 408 || (500...599).contains(status) && status != 501
    }

    /// The failure an error response is: a refusal by a rate limit, or a plain status.
    /// - Parameter hold: how long the origin is held now (``OriginGate/hold(of:)``).
    public static func failure(status: Int, refusal: Refusal?, hold: Duration) -> Failure {
        refusal.map { Failure.limited(status: status, refusal: $0, wait: hold) } ?? .status(status)
    }

    /// Decides what to do after attempt number `attempt` (1 for the first) failed.
    /// - Parameter random: a number in 0..<1 for the jitter (tests pass a fixed one).
    public func decide(after failure: Failure, attempt: Int, random: Double) -> Decision {
        let what: String
        var requested: Duration?
        switch failure {
        case .status(let code):
            guard Self.isRetryable(status: code) else { return .stop(reason: "status \(code) is not retried") }
            what = "status \(code)"
        case .limited(let code, let refusal, let wait):
            what = "status \(code), \(refusal)"
            requested = wait
        case .transient(let reason): what = reason
        case .unreachable(let reason):
            guard retriesUnreachable else { return .stop(reason: reason) }
            what = reason
        }
        guard attempt <= retries else {
            return .stop(reason: "\(what) after \(attempt) attempt\(attempt == 1 ? "" : "s") (--retries \(retries))")
        }
        if let requested {
            guard requested <= maximumWait else {
                // A limit that states no wait asked for none: the wait is the one such limits are given.
                let asked = if case .limited(_, .unstatedLimit, _) = failure { "its wait is" } else { "the server asks to wait" }
                return .stop(reason: "\(what): \(asked) \(requested.formattedSeconds), longer than \(maximumWaitName) \(maximumWait.formattedSeconds)")
            }
            return .retry(after: requested, reason: what)
        }
        let backoff = initialBackoff * (1 << min(attempt - 1, 20))
        let jittered = backoff * (0.5 + 0.5 * min(max(random, 0), 1))
        return .retry(after: min(jittered, maximumWait), reason: "\(what), backing off")
    }
}
