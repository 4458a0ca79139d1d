import HTTPCache

/// The note `fresh get` prints when stored data answered because the network failed: a slow
/// server is not called offline.
enum StaleNotice {
    static func line(for decision: CacheDecision) -> String? {
        guard decision.isOffline else { return nil }
        let showing = "showing the stored response (age \(decision.currentAge ?? 0) s)"
        if let failure = decision.networkFailure, case .timedOut = failure {
            return "the server did not answer in time (\(failure)); \(showing)"
        }
        return "offline: the server could not be reached; \(showing)"
    }
}
