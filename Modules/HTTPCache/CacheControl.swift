/// The parsed directives of one or more `Cache-Control` field lines (RFC 9111 §5.2).
///
/// Parsing never fails: unknown directives are kept but ignored, malformed ones are skipped,
/// quoted values may contain commas, and names compare case-insensitively. When a directive
/// occurs more than once with different values it is recorded as conflicting, and the typed
/// accessors take the safe reading (RFC 9111 §4.2.1: "consider the response stale").
public struct CacheControl: Sendable, Equatable {
    /// Each directive name (lower-cased) with the value of its first occurrence, if any.
    public private(set) var directives: [String: String?] = [:]
    /// Names that occurred more than once with different values.
    public private(set) var conflicting: Set<String> = []

    /// Parses every field line of `Cache-Control` (pass them all; order matters for duplicates).
    public init(fieldValues: [String]) {
        for line in fieldValues {
            for (name, value) in Self.split(line) {
                if let existing = directives[name] {
                    if existing != value { conflicting.insert(name) }
                } else {
                    directives[name] = value
                }
            }
        }
    }

    /// Parses one field value.
    public init(_ fieldValue: String) {
        self.init(fieldValues: [fieldValue])
    }

    /// Whether the directive is present, with or without a value.
    public func contains(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The value of the directive's first occurrence, unquoted.
    public func value(of name: String) -> String? {
        directives[name] ?? nil
    }

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

    // MARK: Parsing

    /// Splits a field value into (name, value) pairs, honouring quoted strings.
    static func split(_ line: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var scalars = Substring(line).unicodeScalars[...]
        while !scalars.isEmpty {
            scalars = scalars.drop { $0 == " " || $0 == "\t" || $0 == "," }
            let name = scalars.prefix { $0 != "=" && $0 != "," }
            scalars = scalars.dropFirst(name.count)
            let trimmedName = String(String.UnicodeScalarView(name)).trimmingWhitespace().lowercased()
            var value: String?
            if scalars.first == "=" {
                scalars = scalars.dropFirst()
                scalars = scalars.drop { $0 == " " || $0 == "\t" }
                if scalars.first == "\"" {
                    var unquoted = String.UnicodeScalarView()
                    scalars = scalars.dropFirst()
                    while let scalar = scalars.first, scalar != "\"" {
                        scalars = scalars.dropFirst()
                        if scalar == "\\", let escaped = scalars.first {
                            unquoted.append(escaped)
                            scalars = scalars.dropFirst()
                        } else {
                            unquoted.append(scalar)
                        }
                    }
                    scalars = scalars.dropFirst()
                    scalars = scalars.drop { $0 != "," }
                    value = String(unquoted)
                } else {
                    let token = scalars.prefix { $0 != "," }
                    scalars = scalars.dropFirst(token.count)
                    value = String(String.UnicodeScalarView(token)).trimmingWhitespace()
                }
            }
            if isToken(trimmedName) { result.append((trimmedName, value)) }
        }
        return result
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
        }
    }
}

/// `max-stale` with or without a limit.
public enum MaxStale: Sendable, Equatable {
    case unlimited
    case seconds(Int)

    /// Whether a response stale by `staleness` seconds is acceptable.
    public func accepts(staleness: Int) -> Bool {
        switch self {
        case .unlimited: true
        case .seconds(let limit): staleness <= limit
        }
    }
}

/// A delta-seconds value as RFC 9111 §1.2.2 reads it.
public enum DeltaSeconds: Sendable, Equatable {
    case absent
    case invalid
    case seconds(Int)

    /// The largest value a cache must represent; larger values are clamped to it.
    public static let ceiling = 2_147_483_648

    init(parsing text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            self = .invalid
            return
        }
        let significant = text.drop { $0 == "0" }
        if significant.count > 10 {
            self = .seconds(Self.ceiling)
        } else {
            self = .seconds(min(Int(significant) ?? 0, Self.ceiling))
        }
    }

    var validSeconds: Int? {
        if case .seconds(let value) = self { return value }
        return nil
    }

    var secondsTreatingInvalidAsZero: Int? {
        switch self {
        case .absent: nil
        case .invalid: 0
        case .seconds(let value): value
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (the HTTP "OWS").
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start] == " " || scalars[start] == "\t" { scalars.formIndex(after: &start) }
        while end > start {
            let last = scalars.index(before: end)
            guard scalars[last] == " " || scalars[last] == "\t" else { break }
            end = last
        }
        if start == scalars.startIndex && end == scalars.endIndex { return self }
        return String(scalars[start..<end])
    }
}
