import HTTPFields

extension FaultRule {
    /// Parses the `--fault` syntax, comma-separated `key=value` pairs such as
    /// `route=/posts,status=429,first=3,retry-after=2`; `status` alone implies `failure=status`.
    public init(spec: String) throws(SpecError) {
        self.init()
        var failureGiven = false
        for pair in spec.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
            guard parts.count == 2 else { throw SpecError("'\(pair)' is not key=value") }
            let (key, value) = (parts[0], parts[1])
            func integer() throws(SpecError) -> Int {
                guard let number = Int(value) else { throw SpecError("\(key) needs an integer, got '\(value)'") }
                return number
            }
            switch key {
            case "route": route = value
            case "latency": latencyMilliseconds = try integer()
            case "jitter": jitterMilliseconds = try integer()
            case "status":
                status = try integer()
                if !failureGiven { failure = .status }
            case "failure":
                guard let parsed = Failure(rawValue: value) else {
                    let known = Failure.allCases.map(\.rawValue).joined(separator: ", ")
                    throw SpecError("failure must be one of \(known), got '\(value)'")
                }
                failure = parsed
                failureGiven = true
            case "rate":
                guard let number = Double(value) else { throw SpecError("rate needs a number, got '\(value)'") }
                rate = number
            case "first": first = try integer()
            case "after": after = try integer()
            case "retry-after": retryAfter = try integer()
            default: throw SpecError("unknown key '\(key)'")
            }
        }
        if let problem = validationProblem {
            throw SpecError("\(problem.key.stringValue): \(problem.message)")
        }
    }
}
