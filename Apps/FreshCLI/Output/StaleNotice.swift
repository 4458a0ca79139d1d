import HTTPCache

/// The note `fresh get` prints when stored data answered because the network or the server
/// failed: a slow server is not called offline, and a server error the stored response hides
/// (`stale-if-error`) is said too.
enum StaleNotice {
    static func line(for decision: CacheDecision) -> String? {
        let showing = "showing the stored response (age \(decision.currentAge ?? 0) s)"
        if case .staleServed(.onError(let status)) = decision.outcome {
            return "the server answered \(status); \(showing), as its stale-if-error allows"
        }
        guard decision.isOffline else { return nil }
        if let failure = decision.networkFailure, case .timedOut = failure {
            return "the server did not answer in time (\(failure)); \(showing)"
        }
        return "offline: the server could not be reached; \(showing)"
    }
}
