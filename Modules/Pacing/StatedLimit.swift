import Foundation
import HTTPFields
import HTTPTypes

/// What one response says about its origin's rate limit, in any of the forms servers use:
/// - GitHub's `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds; some APIs send
///   seconds from now there, told apart by size);
/// - the IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` and
///   `RateLimit: "name";r=REMAINING;t=SECONDS` (drafts 08 on), or its earlier
///   `RateLimit-Limit`, `-Remaining` and `-Reset` (seconds);
/// - `Retry-After` (RFC 9110 §10.2.3): seconds, or an HTTP date.
///
/// Times the server states are read against the server's own `Date` when it sends one, so a
/// client whose clock is off still waits as long as the server means.
public struct StatedLimit: Sendable, Equatable {
    /// Requests left in the current window; `nil` when no field says.
    public var remaining: Int?
    /// How long until the window resets (and ``remaining`` is full again).
    public var resetIn: Duration?
    /// How long `Retry-After` asks to wait.
    public var retryAfter: Duration?
    /// Whether any field states a limit at all (a limit with requests left counts too).
    public var isStated: Bool

    public init(remaining: Int? = nil, resetIn: Duration? = nil, retryAfter: Duration? = nil, isStated: Bool = false) {
        self.remaining = remaining
        self.resetIn = resetIn
        self.retryAfter = retryAfter
        self.isStated = isStated || remaining != nil
    }

    /// What `fields` say, read at `now` (the client's clock).
    public init(fields: HTTPFields, now: Date) {
        self.init()
        // Most answers state nothing: their `Date` is not even parsed.
        guard fields.contains(where: { Self.names.contains($0.name) }) else { return }
        let serverNow = fields[.date].flatMap(HTTPDate.parse) ?? now
        retryAfter = fields[.retryAfter].flatMap { Self.delay(retryAfter: $0, now: serverNow) }
        readGitHubFields(fields, serverNow: serverNow)
        readIETFFields(fields)
    }

    private static let names: Set<HTTPField.Name> = [
        .retryAfter, .xRateLimitLimit, .xRateLimitRemaining, .xRateLimitReset, .rateLimit, .rateLimitPolicy, .rateLimitRemaining, .rateLimitReset,
    ]

    /// The wait a `Retry-After` value asks for: delay-seconds or an HTTP date; `nil` when it is neither.
    public static func delay(retryAfter: String, now: Date) -> Duration? {
        let text = retryAfter.trimmingWhitespace()
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }

    /// Whether the stated budget is spent: none left, with a known reset.
    public var isSpent: Bool { remaining == 0 }

    // MARK: The forms

    /// `X-RateLimit-*`: a reset above a billion is a time (epoch seconds), below it seconds from now.
    private mutating func readGitHubFields(_ fields: HTTPFields, serverNow: Date) {
        let limit = fields[.xRateLimitLimit].flatMap { Int($0.trimmingWhitespace()) }
        let remaining = fields[.xRateLimitRemaining].flatMap { Int($0.trimmingWhitespace()) }
        let reset = fields[.xRateLimitReset].flatMap { Double($0.trimmingWhitespace()) }
        guard limit != nil || remaining != nil || reset != nil else { return }
        isStated = true
        if let remaining { self.remaining = max(0, remaining) }
        if let reset {
            let seconds = reset > 1_000_000_000 ? reset - serverNow.timeIntervalSince1970 : reset
            resetIn = .milliseconds(Int(max(0, seconds) * 1000))
        }
    }

    /// The IETF draft's fields, old and new.
    private mutating func readIETFFields(_ fields: HTTPFields) {
        if fields[.rateLimitPolicy] != nil { isStated = true }
        if let remaining = fields[.rateLimitRemaining].flatMap({ Int($0.trimmingWhitespace()) }) {
            isStated = true
            consider(remaining: remaining, resetSeconds: fields[.rateLimitReset].flatMap { Int($0.trimmingWhitespace()) })
        }
        guard let current = fields[.rateLimit] else { return }
        isStated = true
        let elements = FieldList.elements(current)
        // Draft 07's dictionary: limit=10, remaining=5, reset=30.
        let dictionary = Dictionary(elements.compactMap { Self.parameter(Substring($0)) }, uniquingKeysWith: { first, _ in first })
        if let remaining = dictionary["remaining"] { consider(remaining: remaining, resetSeconds: dictionary["reset"]) }
        // Drafts 08 on: "name";r=5;t=30, one item per policy.
        for element in elements {
            let parameters = Dictionary(element.split(separator: ";").dropFirst().compactMap(Self.parameter), uniquingKeysWith: { first, _ in first })
            if let remaining = parameters["r"] { consider(remaining: remaining, resetSeconds: parameters["t"]) }
        }
    }

    /// Keeps the policy with the fewest requests left.
    private mutating func consider(remaining: Int, resetSeconds: Int?) {
        guard self.remaining.map({ remaining < $0 }) ?? true else { return }
        self.remaining = max(0, remaining)
        if let resetSeconds { resetIn = .seconds(max(0, resetSeconds)) }
    }

    /// `name=integer`, `nil` when it is not one.
    private static func parameter(_ text: Substring) -> (String, Int)? {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
        guard parts.count == 2, let value = Int(parts[1]) else { return nil }
        return (parts[0].lowercased(), value)
    }
}

extension HTTPField.Name {
    /// GitHub's (and many others') requests allowed per window.
    public static let xRateLimitLimit = HTTPField.Name("X-RateLimit-Limit")!
    /// Requests left in the current window.
    public static let xRateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")!
    /// When the window resets: epoch seconds (GitHub), or seconds from now.
    public static let xRateLimitReset = HTTPField.Name("X-RateLimit-Reset")!
    /// The IETF draft's current state (drafts 07 on).
    public static let rateLimit = HTTPField.Name("RateLimit")!
    /// The IETF draft's quota policies.
    public static let rateLimitPolicy = HTTPField.Name("RateLimit-Policy")!
    /// The IETF draft's requests left (drafts up to 06).
    public static let rateLimitRemaining = HTTPField.Name("RateLimit-Remaining")!
    /// The IETF draft's seconds until the reset (drafts up to 06).
    public static let rateLimitReset = HTTPField.Name("RateLimit-Reset")!
}
