import HTTPTypes

/// Which fields state the rate limit in the answers of `--rate-limit` (`--rate-limit-fields`):
/// GitHub's `X-RateLimit-*`, the IETF draft's `RateLimit` and `RateLimit-Policy`
/// (draft-ietf-httpapi-ratelimit-headers), and `Retry-After` on a refusal. Clients meet all
/// three in the field, alone or together.
public struct RateLimitFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds), as GitHub sends them.
    public static let xRateLimit = RateLimitFields(rawValue: 1)
    /// `RateLimit-Policy: "default";q=N;w=W` and `RateLimit: "default";r=R;t=T`.
    public static let ietf = RateLimitFields(rawValue: 2)
    /// `Retry-After` on a refused request.
    public static let retryAfter = RateLimitFields(rawValue: 4)

    /// What an answer carries unless told otherwise: GitHub's fields, and `Retry-After` on a refusal.
    public static let standard: RateLimitFields = [.xRateLimit, .retryAfter]

    /// The names `--rate-limit-fields` takes, comma-separated.
    static let names: [(name: String, fields: RateLimitFields)] = [
        ("x-ratelimit", .xRateLimit), ("ietf", .ietf), ("retry-after", .retryAfter), ("none", []),
    ]

    /// Parses `x-ratelimit,ietf,retry-after` (or `none`).
    public init(spec: String) throws(SpecError) {
        var fields: RateLimitFields = []
        for part in spec.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let known = Self.names.first(where: { $0.name == part }) else {
                throw SpecError("'\(part)' is not one of \(Self.names.map(\.name).joined(separator: ", "))")
            }
            fields.formUnion(known.fields)
        }
        self = fields
    }

    /// The fields stating `limit` with `remaining` left, the next slot freeing in `resetIn` whole
    /// seconds at `resetTime` (epoch seconds). `Retry-After` is the refusal's business.
    func stating(_ limit: RateLimit, remaining: Int, resetIn: Int, resetTime: Int) -> HTTPFields {
        var fields = HTTPFields()
        if contains(.xRateLimit) {
            fields[.xRateLimitLimit] = String(limit.requests)
            fields[.xRateLimitRemaining] = String(remaining)
            fields[.xRateLimitReset] = String(resetTime)
        }
        if contains(.ietf) {
            let window = max(1, Int(limit.window.seconds.rounded(.up)))
            fields[.rateLimitPolicy] = "\"default\";q=\(limit.requests);w=\(window)"
            fields[.rateLimit] = "\"default\";r=\(remaining);t=\(resetIn)"
        }
        return fields
    }
}

extension HTTPField.Name {
    /// Requests allowed per window.
    static let xRateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    /// Requests still allowed in the current window.
    static let xRateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    /// When the next slot frees, in seconds since 1970 (UTC).
    static let xRateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
    /// The IETF draft's quota policy: `"name";q=QUOTA;w=WINDOW-SECONDS`.
    static let rateLimitPolicy = HTTPField.Name("RateLimit-Policy")!
    /// The IETF draft's current state: `"name";r=REMAINING;t=SECONDS-TO-RESET`.
    static let rateLimit = HTTPField.Name("RateLimit")!
}
