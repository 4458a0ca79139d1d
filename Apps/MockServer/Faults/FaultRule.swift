/// One injected misbehaviour: delay and/or failure, scoped to a route or global, optionally
/// limited to a fraction of requests (`rate`) or to the first N (`first`) so a client can be
/// seen to recover, or starting after the first N (`after`), as an outage partway through a listing.
///
/// The same rule comes from `--fault SPEC` on the command line and from `PUT /_admin/faults` as
/// JSON (`{"route": "/posts", "failure": "status", "status": 503, "rate": 0.3, "retry_after": 2}`).
/// Every property defaults to "no effect" except `rate` (always) and `status` (503), so the
/// memberwise initialiser needs only what a rule changes: `FaultRule(route: "/feed", failure: .close)`.
public struct FaultRule: Codable, Sendable, Hashable {
    /// How a faulted response fails.
    public enum Failure: String, Codable, Sendable, CaseIterable {
        /// An error status with a JSON error body (see ``FaultRule/status``).
        case status
        /// The body cut in half, with a `Content-Length` that matches the cut (so it parses as broken JSON).
        case truncate
        /// `Content-Length` of the whole body, then the connection closes half-way through it.
        case close
        /// A well-framed body that is not valid JSON.
        case invalidJSON = "invalid_json"
    }

    /// The route template it applies to (`/posts`, `/posts/{id}`, `/styles/has-more/users`, …);
    /// `nil` for every API route. Admin routes are never faulted.
    public var route: String?
    /// Fixed delay before answering, in milliseconds.
    public var latencyMilliseconds = 0
    /// Extra delay drawn uniformly from `0...jitter`, in milliseconds.
    public var jitterMilliseconds = 0
    /// How matching requests fail; `nil` for latency only.
    public var failure: Failure?
    /// The status of a `.status` failure.
    public var status = 503
    /// Probability in `0...1` that a matching request fails.
    public var rate: Double = 1
    /// Only the first N matching requests are affected, then the route recovers.
    public var first: Int?
    /// The first N matching requests pass unharmed: the rule starts with the next (an outage
    /// that begins partway through a listing). With `first`, the N after those are affected.
    public var after: Int?
    /// `Retry-After` seconds sent with a status failure (default 1 for 429 and 503).
    public var retryAfter: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case route, failure, status, rate, first, after
        case latencyMilliseconds = "latency_ms"
        case jitterMilliseconds = "jitter_ms"
        case retryAfter = "retry_after"
    }

    /// The largest `retry_after` (a day) and `first` (and `after`), so that every value the document allows
    /// fits the server's integers.
    static let maximumRetryAfter = 86_400
    static let maximumFirst = 1_000_000_000
}

extension FaultRule {
    /// Decodes with the same defaults as the memberwise initialiser and validates the values, as
    /// `/openapi.json` states them: a member may be left out, but not `null`, and no other member
    /// is taken; an integer may be written as JSON writes any number (`48.0`, `1e3`), as JSON
    /// Schema's `integer` allows.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownMembers(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<Value: Decodable>(_ type: Value.Type, _ key: CodingKeys) throws -> Value? {
            guard container.contains(key) else { return nil }
            guard try !container.decodeNil(forKey: key) else {
                throw DecodingError.valueNotFound(type, .init(codingPath: container.codingPath + [key], debugDescription: "null"))
            }
            return try container.decode(type, forKey: key)
        }
        func integer(_ key: CodingKeys) throws -> Int? {
            guard let number = try value(Double.self, key) else { return nil }
            guard number == number.rounded() else {
                throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [key],
                                                        debugDescription: "must be a whole number, not \(number)"))
            }
            // A whole number too large for an integer is out of every range below.
            return Int(exactly: number) ?? (number < 0 ? Int.min : Int.max)
        }
        self.init(
            route: try value(String.self, .route),
            latencyMilliseconds: try integer(.latencyMilliseconds) ?? 0,
            jitterMilliseconds: try integer(.jitterMilliseconds) ?? 0,
            failure: try value(Failure.self, .failure),
            status: try integer(.status) ?? 503,
            rate: try value(Double.self, .rate) ?? 1,
            first: try integer(.first),
            after: try integer(.after),
            retryAfter: try integer(.retryAfter)
        )
        if let problem = validationProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [problem.key], debugDescription: problem.message))
        }
    }

    // MARK: Validation

    /// The first invalid field and why, or `nil` when the rule is usable.
    var validationProblem: (key: CodingKeys, message: String)? {
        // Whether the route exists depends on the server's data: ``RouteTable`` checks that.
        if let route, !route.hasPrefix("/") {
            return (.route, "'\(route)' is not a route template such as /posts or /posts/{id}")
        }
        if latencyMilliseconds < 0 || latencyMilliseconds > 60_000 { return (.latencyMilliseconds, "must be 0…60000") }
        if jitterMilliseconds < 0 || jitterMilliseconds > 60_000 { return (.jitterMilliseconds, "must be 0…60000") }
        if !(400...599).contains(status) { return (.status, "must be an error status 400…599") }
        if !(0...1).contains(rate) { return (.rate, "must be between 0 and 1") }
        if let first, first < 1 || first > Self.maximumFirst { return (.first, "must be 1…\(Self.maximumFirst)") }
        if let after, after < 1 || after > Self.maximumFirst { return (.after, "must be 1…\(Self.maximumFirst)") }
        if let retryAfter, retryAfter < 0 || retryAfter > Self.maximumRetryAfter { return (.retryAfter, "must be 0…\(Self.maximumRetryAfter) seconds") }
        return nil
    }
}
