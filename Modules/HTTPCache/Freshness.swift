import Foundation
import HTTPFields
import HTTPTypes

/// How long a stored response stays fresh, and why (RFC 9111 §4.2.1).
public struct FreshnessLifetime: Sendable, Equatable {
    /// Which rule gave the lifetime.
    public enum Source: Sendable, Equatable {
        /// `Cache-Control: max-age`.
        case maxAge
        /// A `max-age` that is not a number of seconds, or given twice with different values:
        /// stale (RFC 9111 §4.2.1, §5.2).
        case invalidMaxAge
        /// `Expires` minus `Date`.
        case expires
        /// 10% of the time since `Last-Modified` (§4.2.2).
        case heuristic
        /// `Expires` that is not a valid HTTP-date: stale (§5.3).
        case invalidExpires
        /// Nothing gives a lifetime, and the status does not allow a heuristic.
        case none
    }

    public var seconds: Int
    public var source: Source

    public init(seconds: Int, source: Source) {
        self.seconds = seconds
        self.source = source
    }

    /// The lifetime of a stored response.
    public static func of(_ entry: StoredResponse) -> FreshnessLifetime { of(entry, cacheControl: entry.cacheControl) }

    /// The lifetime of a stored response whose `Cache-Control` the caller has already parsed.
    static func of(_ entry: StoredResponse, cacheControl: CacheControl) -> FreshnessLifetime {
        switch cacheControl.deltaSeconds("max-age") {
        case .seconds(let maxAge): return FreshnessLifetime(seconds: maxAge, source: .maxAge)
        case .invalid: return FreshnessLifetime(seconds: 0, source: .invalidMaxAge)
        case .absent: break
        }
        let fields = entry.headerFields
        let expiresValues = fields[values: .expires]
        if !expiresValues.isEmpty {
            guard expiresValues.count == 1, let expires = HTTPDate.parse(expiresValues[0]) else {
                return FreshnessLifetime(seconds: 0, source: .invalidExpires)
            }
            let date = fields.firstValue(for: .date).flatMap(HTTPDate.parse) ?? entry.responseTime
            return FreshnessLifetime(seconds: max(0, Int(expires.timeIntervalSince(date))), source: .expires)
        }
        if HeuristicFreshness.allows(status: entry.status, cacheControl: cacheControl),
           let lastModified = fields.firstValue(for: .lastModified).flatMap(HTTPDate.parse) {
            let date = fields.firstValue(for: .date).flatMap(HTTPDate.parse) ?? entry.responseTime
            return FreshnessLifetime(seconds: Int(max(0, date.timeIntervalSince(lastModified)) / 10), source: .heuristic)
        }
        return FreshnessLifetime(seconds: 0, source: .none)
    }
}

/// The age of a stored response now (RFC 9111 §4.2.3).
public enum CurrentAge {
    /// `corrected_initial_age + resident_time`, in whole seconds.
    public static func of(_ entry: StoredResponse, now: Date) -> Int {
        let fields = entry.headerFields
        // `Age: 7200, 0` (two lines joined by a proxy) counts by its first value (RFC 9111 §5.1).
        let ageValue = FieldList.first(fields[values: .age]).flatMap { DeltaSeconds(parsing: $0).validSeconds } ?? 0
        let dateValue = fields.firstValue(for: .date).flatMap(HTTPDate.parse) ?? entry.responseTime
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedAgeValue = Double(ageValue) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(entry.responseTime))
        let total = correctedInitialAge + residentTime
        return total >= Double(DeltaSeconds.ceiling) ? DeltaSeconds.ceiling : Int(total)
    }
}

/// The heuristic freshness rules of RFC 9111 §4.2.2.
public enum HeuristicFreshness {
    /// Status codes defined as heuristically cacheable (RFC 9110 §15.1).
    public static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether a heuristic lifetime may be used for this status.
    public static func allows(status: HTTPResponse.Status, cacheControl: CacheControl) -> Bool {
        cacheableStatuses.contains(status.code) || cacheControl.isPublic
    }
}
