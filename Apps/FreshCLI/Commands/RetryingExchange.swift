import Foundation
import HTTPCache
import Pacing
import Synchronization

/// `fresh get --retry N`: one request through the cache, sent again after a transient failure
/// (the option's help lists them) at most N times by the ``RetryLoop`` a sync's pages use.
struct RetryingExchange: Sendable {
    let client: CachingClient
    let gate: OriginGate
    let policy: CachePolicy
    let retries: Int
    /// `nil`: redirects are returned, not followed.
    let maximumRedirects: Int?

    func send(_ request: TransportRequest) async throws -> CachedResponse {
        // As curl's --retry: a server that refuses the connection is not tried again.
        let rules = RetryPolicy(retries: retries, maximumWaitName: "the longest wait of --retry,", retriesUnreachable: false)
        // The gate says a wait once; a retry that already said it does not say it twice.
        let toldByRetry = Mutex(false)
        let pacing = PacingContext(maximumWait: rules.maximumWait, maximumWaitName: rules.maximumWaitName) { wait in
            let told = toldByRetry.withLock { told in defer { told = false }; return told }
            if wait.isFirst && !told {
                StandardError.note("fresh: \(wait.reason.explanation): waiting \(wait.duration.formattedSeconds)")
            }
        }
        // The last attempt's answer or error: what the loop ends with when the policy stops.
        var last: Result<CachedResponse, TransportError> = .failure(.failed("no attempt"))
        return try await RetryLoop(policy: rules).run { _ in
            do {
                let response = try await PacingContext.$current.withValue(pacing) {
                    try await client.send(request, policy: policy, maximumRedirects: maximumRedirects)
                }
                last = .success(response)
                // Only what the server just said is retried, never an answer from storage.
                guard retries > 0, response.decision.requestsSent > 0, response.status.code >= 400 else { return .done(response) }
                let code = response.status.code
                let refusal = Refusal.of(status: code, limit: StatedLimit(fields: response.headerFields, now: Date()), body: response.body)
                guard refusal != nil || RetryPolicy.isRetryable(status: code) else { return .done(response) }
                return .failed(RetryPolicy.failure(status: code, refusal: refusal, hold: gate.hold(of: Origin.of(request.url))))
            } catch let error as TransportError where retries > 0 {
                guard let failure = RetryLoop.failure(of: error) else { throw error }
                last = .failure(error)
                return .failed(failure)
            }
        } willRetry: { retry in
            StandardError.note("fresh: \(retry.reason); retry \(retry.attempt) of \(retries) in \(retry.wait.formattedSeconds)")
            if retry.waitsAtGate { toldByRetry.withLock { $0 = true } }
        } giveUp: { stop in
            if case .success = last, stop.hadRetriesLeft { StandardError.note("fresh: \(stop.reason); not retried") }
            return try last.get()
        }
    }
}
