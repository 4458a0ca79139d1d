import Foundation
import HTTPCache
import Pacing
import Synchronization

/// `fresh get --retry N`: one request through the cache, sent again after a transient failure
/// (a timeout, a response cut short, 408, 429, 5xx other than 501, a refusal by a rate limit) at
/// most N times, by the rules of ``RetryPolicy``: a rate limit's wait is the origin gate's, any
/// other a backoff of 1 s, 2 s, 4 s….
struct RetryingExchange: Sendable {
    let client: CachingClient
    let gate: OriginGate
    let policy: CachePolicy
    let retries: Int
    /// `nil`: redirects are returned, not followed.
    let maximumRedirects: Int?

    func send(_ request: TransportRequest) async throws -> CachedResponse {
        let rules = RetryPolicy(retries: retries, maximumWaitName: "the longest wait of --retry,")
        // The gate says a wait once; a retry that already said it does not say it twice.
        let toldByRetry = Mutex(false)
        let pacing = PacingContext(maximumWait: rules.maximumWait, maximumWaitName: rules.maximumWaitName) { wait in
            let told = toldByRetry.withLock { told in defer { told = false }; return told }
            if wait.isFirst && !told {
                StandardError.note("fresh: \(wait.reason.explanation): waiting \(wait.duration.formattedSeconds)")
            }
        }
        var attempt = 1
        while true {
            let decision: RetryPolicy.Decision
            var waitsAtGate = false
            do {
                let response = try await PacingContext.$current.withValue(pacing) {
                    try await client.send(request, policy: policy, maximumRedirects: maximumRedirects)
                }
                // Only what the server just said is retried, never an answer from storage.
                guard retries > 0, response.decision.requestsSent > 0, response.status.code >= 400 else { return response }
                let code = response.status.code
                let refusal = Refusal.of(status: code, limit: StatedLimit(fields: response.headerFields, now: Date()), body: response.body)
                guard refusal != nil || RetryPolicy.isRetryable(status: code) else { return response }
                waitsAtGate = refusal != nil
                decision = rules.decide(after: RetryPolicy.failure(status: code, refusal: refusal, hold: gate.hold(of: Origin.of(request.url))),
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
            // A rate limit's wait happens at the gate, with every other request to the origin.
            if waitsAtGate { toldByRetry.withLock { $0 = true } } else { try await Task.sleep(for: wait) }
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
