import HTTPCache

/// The one loop that tries a request again (for the same callers as ``RetryPolicy``): each
/// attempt says how it went, the policy decides, and the loop waits and goes again or gives up.
///
/// A rate limit's wait is not the loop's: the ``OriginGate`` holds the origin, and the next
/// attempt waits there with every other request to it. Any other wait (a backoff) is slept here.
public struct RetryLoop: Sendable {
    /// How one attempt went.
    public enum Attempt<Value: Sendable>: Sendable {
        /// The answer: returned as it is.
        case done(Value)
        /// A failure the policy decides on.
        case failed(RetryPolicy.Failure)
    }

    /// A retry about to happen, for the caller to tell.
    public struct Retry: Sendable {
        /// The attempt that failed (1 for the first).
        public var attempt: Int
        public var wait: Duration
        public var reason: String
        public var failure: RetryPolicy.Failure
        /// Whether the wait happens at the origin gate (a rate limit) rather than in this loop.
        public var waitsAtGate: Bool {
            if case .limited = failure { true } else { false }
        }
    }

    /// The end the policy chose, for the caller to turn into its answer or its error.
    public struct Stop: Sendable {
        /// The attempt that failed last (1 for the first).
        public var attempt: Int
        public var failure: RetryPolicy.Failure
        public var reason: String
        /// Whether retries were left: the failure is not retried, or asks for too long a wait.
        public var hadRetriesLeft: Bool
    }

    public let policy: RetryPolicy
    public let clock: PacingClock
    /// A number in 0..<1 for each backoff's jitter (tests pass a fixed one).
    public let random: @Sendable () -> Double

    public init(policy: RetryPolicy, clock: PacingClock = .system, random: @escaping @Sendable () -> Double = { .random(in: 0..<1) }) {
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// Runs `attempt` (given its number, from 1) until it is done or the policy stops:
    /// `willRetry` is told before each wait, and `giveUp` makes what the loop then ends with.
    public func run<Value: Sendable>(
        _ attempt: (Int) async throws -> Attempt<Value>,
        willRetry: (Retry) -> Void,
        giveUp: (Stop) throws -> Value
    ) async throws -> Value {
        var number = 1
        while true {
            try Task.checkCancellation()
            let failure: RetryPolicy.Failure
            switch try await attempt(number) {
            case .done(let value): return value
            case .failed(let failed): failure = failed
            }
            switch policy.decide(after: failure, attempt: number, random: random()) {
            case .stop(let reason):
                return try giveUp(Stop(attempt: number, failure: failure, reason: reason, hadRetriesLeft: number <= policy.retries))
            case .retry(let wait, let reason):
                let retry = Retry(attempt: number, wait: wait, reason: reason, failure: failure)
                willRetry(retry)
                if !retry.waitsAtGate { try await clock.sleep(wait) }
                number += 1
            }
        }
    }

    /// A transport error as a failure worth deciding on; `nil` for one no other try mends.
    public static func failure(of error: TransportError) -> RetryPolicy.Failure? {
        switch error {
        case .unreachable: .unreachable(error.description)
        case .timedOut, .truncated, .failed: .transient(error.description)
        case .invalidURL, .invalidResponse, .bodyTooLarge, .cancelled, .unavailable, .certificate: nil
        }
    }
}
