/// What the fault rules decided for one request.
struct FaultDecision: Sendable, Equatable {
    /// Delay before answering, in milliseconds.
    var delayMilliseconds = 0
    /// How the answer fails, if it does.
    var failure: FaultRule.Failure?
    /// Status of a `.status` failure.
    var status: Int = 503
    /// `Retry-After` of a `.status` failure.
    var retryAfter: Int?

    /// A short description for the journal, or `nil` when nothing was injected.
    var summary: String? {
        var parts: [String] = []
        if delayMilliseconds > 0 { parts.append("latency \(delayMilliseconds)ms") }
        switch failure {
        case .status: parts.append("status \(status)")
        case .some(let failure): parts.append(failure.rawValue)
        case nil: break
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
