import HTTPCache
import SyncEngine

/// `fresh get --retry N`: one request through the cache, sent again after a transient failure
/// (a timeout, a response cut short, 408, 429, 5xx other than 501) at most N times, waiting as
/// `Retry-After` asks, else backing off 1 s, 2 s, 4 s… (the rules of ``RetryPolicy``).
struct RetryingExchange: Sendable {
    let client: CachingClient
    let policy: CachePolicy
    let retries: Int
    /// `nil`: redirects are returned, not followed.
    let maximumRedirects: Int?

    func send(_ request: TransportRequest) async throws -> CachedResponse {
        let rules = RetryPolicy(retries: retries, maximumWaitName: "the longest wait of --retry,")
        var attempt = 1
        while true {
            let decision: RetryPolicy.Decision
            do {
                let response = try await client.send(request, policy: policy, maximumRedirects: maximumRedirects)
                // Only what the server just said is retried, never an answer from storage.
                guard retries > 0, response.decision.requestsSent > 0,
                      RetryPolicy.isRetryable(status: response.status.code) else { return response }
                decision = rules.decide(after: .status(response.status.code, retryAfter: response.headerFields[.retryAfter]),
                                        attempt: attempt, random: .random(in: 0..<1))
                if case .stop(let reason) = decision {
                    // Retries were left: the server asked for more than a retry waits.
                    if attempt <= retries { StandardError.note("fresh: \(reason); not retried") }
                    return response
                }
            } catch let error as TransportError where retries > 0 && Self.isTransient(error) {
                decision = rules.decide(after: .transient(error.description), attempt: attempt, random: .random(in: 0..<1))
                if case .stop = decision { throw error }
            }
            guard case .retry(let wait, let reason) = decision else { continue }
            StandardError.note("fresh: \(reason); retry \(attempt) of \(retries) in \(wait.formattedSeconds)")
            try await Task.sleep(for: wait)
            attempt += 1
        }
    }

    /// curl's transient network failures: the server was reached but too slow or cut short.
    private static func isTransient(_ error: TransportError) -> Bool {
        switch error {
        case .timedOut, .truncated: true
        default: false
        }
    }
}
