import HTTPFields

/// The parsed directives of one or more `Cache-Control` field lines (RFC 9111 §5.2).
///
/// Parsing never fails: unknown directives are kept but ignored, malformed ones skipped. A
/// directive that occurs more than once with different values is recorded as conflicting, and
/// the typed accessors take the safe reading (RFC 9111 §4.2.1: "consider the response stale").
public struct CacheControl: Sendable, Equatable {
    /// Each directive name (lower-cased) with the value of its first occurrence, if any.
    public private(set) var directives: [String: String?] = [:]
    /// Names that occurred more than once with different values.
    public private(set) var conflicting: Set<String> = []

    /// Parses every field line of `Cache-Control` (pass them all; order matters for duplicates).
    public init(fieldValues: [String]) {
        for (name, value) in fieldValues.flatMap(FieldDirectives.parse) {
            if let existing = directives[name] {
                if existing != value { conflicting.insert(name) }
            } else {
                directives[name] = value
            }
        }
    }

    /// Parses one field value.
    public init(_ fieldValue: String) { self.init(fieldValues: [fieldValue]) }

    /// Whether the directive is present, with or without a value.
    public func contains(_ name: String) -> Bool { directives[name] != nil }
    /// The value of the directive's first occurrence, unquoted.
    public func value(of name: String) -> String? { directives[name] ?? nil }

    /// The directive's delta-seconds value (RFC 9111 §1.2.2).
    public func deltaSeconds(_ name: String) -> DeltaSeconds {
        guard let entry = directives[name] else { return .absent }
        guard !conflicting.contains(name), let text = entry else { return .invalid }
        return DeltaSeconds(parsing: text)
    }

    // MARK: Response directives

    /// `max-age`: present but invalid or conflicting counts as 0 (stale).
    public var maxAge: Int? { deltaSeconds("max-age").secondsTreatingInvalidAsZero }
    /// `no-store`: neither the request nor the response may be stored.
    public var noStore: Bool { contains("no-store") }
    /// `no-cache`: the response may be stored but must be revalidated before every use.
    public var noCache: Bool { contains("no-cache") }
    /// `must-revalidate`: once stale, never serve without a successful revalidation.
    public var mustRevalidate: Bool { contains("must-revalidate") }
    /// `immutable` (RFC 8246): the body will not change while fresh; no reload-time revalidation.
    public var immutable: Bool { contains("immutable") }
    /// `private`: allowed here, because this is a private cache.
    public var isPrivate: Bool { contains("private") }
    /// `public`: marks a response storable even without explicit freshness.
    public var isPublic: Bool { contains("public") }
    /// `stale-while-revalidate` (RFC 5861): seconds a stale response may be served while a
    /// background revalidation runs. Invalid values disable it.
    public var staleWhileRevalidate: Int? { deltaSeconds("stale-while-revalidate").validSeconds }
    /// `stale-if-error` (RFC 5861): seconds a stale response may be served when the origin fails.
    public var staleIfError: Int? { deltaSeconds("stale-if-error").validSeconds }

    // MARK: Request directives

    /// `max-stale`: how stale a response the client accepts; `.unlimited` without a value.
    public var maxStale: MaxStale? {
        guard let entry = directives["max-stale"] else { return nil }
        guard let text = entry else { return .unlimited }
        return DeltaSeconds(parsing: text).validSeconds.map(MaxStale.seconds)
    }
    /// `min-fresh`: the response must stay fresh for at least this many more seconds.
    public var minFresh: Int? { deltaSeconds("min-fresh").validSeconds }
    /// `only-if-cached`: never contact the origin.
    public var onlyIfCached: Bool { contains("only-if-cached") }
    /// Whether the request lets `stale-while-revalidate` serve a stale response: not when it asks
    /// for revalidation or bounds the age itself (`no-cache`, `max-age`, `min-fresh`, `max-stale`:
    /// RFC 9111 §5.2.1; an accepting `max-stale` has answered from storage before this is asked).
    public var acceptsStaleWhileRevalidate: Bool {
        !noCache && !contains("max-age") && !contains("min-fresh") && !contains("max-stale")
    }
}

/// `max-stale` with or without a limit.
public enum MaxStale: Sendable, Equatable {
    case unlimited, seconds(Int)

    /// Whether a response stale by `staleness` seconds is acceptable.
    public func accepts(staleness: Int) -> Bool {
        guard case .seconds(let limit) = self else { return true }
        return staleness <= limit
    }
}

/// A delta-seconds value as RFC 9111 §1.2.2 reads it.
public enum DeltaSeconds: Sendable, Equatable {
    case absent, invalid, seconds(Int)

    /// The largest value a cache must represent; larger values are clamped to it.
    public static let ceiling = 2_147_483_648

    init(parsing text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            self = .invalid
            return
        }
        let significant = text.drop { $0 == "0" }
        self = .seconds(significant.count > 10 ? Self.ceiling : min(Int(significant) ?? 0, Self.ceiling))
    }

    var validSeconds: Int? {
        if case .seconds(let value) = self { return value }
        return nil
    }

    var secondsTreatingInvalidAsZero: Int? { self == .invalid ? 0 : validSeconds }
}
