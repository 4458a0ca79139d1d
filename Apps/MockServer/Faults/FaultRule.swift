// MARK: - FaultRule

/// One injected misbehaviour: delay and/or failure, scoped to a route or global, optionally
/// limited to a fraction of requests (`rate`) or to the first N (`first`) so a client can be
/// seen to recover.
///
/// The same rule comes from `--fault SPEC` on the command line and from `PUT /_admin/faults`
/// as JSON, e.g. `route=/posts,status=503,rate=0.3,retry-after=2` or
/// `{"route": "/posts", "failure": "status", "status": 503, "rate": 0.3, "retry_after": 2}`.
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
    public var latencyMilliseconds: Int
    /// Extra delay drawn uniformly from `0...jitter`, in milliseconds.
    public var jitterMilliseconds: Int
    /// How matching requests fail; `nil` for latency only.
    public var failure: Failure?
    /// The status of a `.status` failure (default 503).
    public var status: Int
    /// Probability in `0...1` that a matching request fails.
    public var rate: Double
    /// Only the first N matching requests are affected, then the route recovers.
    public var first: Int?
    /// `Retry-After` seconds sent with a status failure (default 1 for 429 and 503).
    public var retryAfter: Int?

    /// A rule; every parameter defaults to "no effect" except `rate` (always) and `status` (503).
    public init(
        route: String? = nil, latencyMilliseconds: Int = 0, jitterMilliseconds: Int = 0, failure: Failure? = nil,
        status: Int = 503, rate: Double = 1, first: Int? = nil, retryAfter: Int? = nil
    ) {
        self.route = route
        self.latencyMilliseconds = latencyMilliseconds
        self.jitterMilliseconds = jitterMilliseconds
        self.failure = failure
        self.status = status
        self.rate = rate
        self.first = first
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey {
        case route, failure, status, rate, first
        case latencyMilliseconds = "latency_ms"
        case jitterMilliseconds = "jitter_ms"
        case retryAfter = "retry_after"
    }

    /// Decodes with the same defaults as ``init(route:latencyMilliseconds:jitterMilliseconds:failure:status:rate:first:retryAfter:)``
    /// and validates the values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            route: try container.decodeIfPresent(String.self, forKey: .route),
            latencyMilliseconds: try container.decodeIfPresent(Int.self, forKey: .latencyMilliseconds) ?? 0,
            jitterMilliseconds: try container.decodeIfPresent(Int.self, forKey: .jitterMilliseconds) ?? 0,
            failure: try container.decodeIfPresent(Failure.self, forKey: .failure),
            status: try container.decodeIfPresent(Int.self, forKey: .status) ?? 503,
            rate: try container.decodeIfPresent(Double.self, forKey: .rate) ?? 1,
            first: try container.decodeIfPresent(Int.self, forKey: .first),
            retryAfter: try container.decodeIfPresent(Int.self, forKey: .retryAfter)
        )
        if let problem = validationProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: [problem.key], debugDescription: problem.message))
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
        if let first, first < 1 { return (.first, "must be at least 1") }
        if let retryAfter, retryAfter < 0 { return (.retryAfter, "must not be negative") }
        return nil
    }
}
