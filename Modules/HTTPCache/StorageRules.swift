import Foundation
import HTTPFields
import HTTPTypes

/// Whether a response may be stored (RFC 9111 §3), and how a 304 updates a stored one (§4.3.4).
public enum StorageRules {
    /// Final status codes whose rules this cache knows. A response with another final status is
    /// stored only with explicit freshness (RFC 9111 §3), and never when it says
    /// `must-understand`; 206 is never stored (it needs range support this cache lacks).
    static let understoodStatuses: Set<Int> = Set(200...205).union([300, 301, 302, 303, 307, 308])
        .union(400...418).union([421, 422, 425, 426, 428, 429, 431, 451]).union(500...505)

    /// Why the response must not be stored, or `nil` when it may be.
    public static func reasonNotToStore(
        method: HTTPRequest.Method, requestCacheControl: CacheControl,
        status: HTTPResponse.Status, headerFields: HTTPFields, bodyCount: Int, maximumEntrySize: Int
    ) -> String? {
        guard method == .get else { return "only GET responses are stored (this was \(method.rawValue))" }
        let cacheControl = CacheControl(fieldValues: headerFields[values: .cacheControl])
        let understood = understoodStatuses.contains(status.code)
        guard (200...599).contains(status.code), status.code != 206, understood || !cacheControl.contains("must-understand") else {
            return "status \(status.code) is not one this cache stores"
        }
        if requestCacheControl.noStore { return "request has no-store" }
        // must-understand beside no-store asks a cache that knows the status code's rules (the
        // guard above) to store anyway, and any other cache not to (§5.2.2.3).
        if cacheControl.noStore && !cacheControl.contains("must-understand") { return "response has no-store" }
        if FieldList.contains("*", in: headerFields[values: .vary]) { return "Vary: * can never be matched" }
        if let declared = headerFields[.contentLength].flatMap({ Int($0.trimmingWhitespace()) }), declared != bodyCount {
            return "body is \(bodyCount) bytes but Content-Length says \(declared)"
        }
        if bodyCount > maximumEntrySize {
            return "body of \(bodyCount) bytes exceeds the per-entry limit of \(maximumEntrySize)"
        }
        let explicitFreshness = cacheControl.maxAge != nil || headerFields[.expires] != nil
        let heuristicAllowed = HeuristicFreshness.allows(status: status, cacheControl: cacheControl)
        if !explicitFreshness && !heuristicAllowed && !cacheControl.isPrivate {
            return "status \(status.code) needs explicit freshness (max-age or Expires) to be stored"
        }
        return nil
    }

    /// Header fields a 304 must not overwrite in the stored response (RFC 9111 §3.2).
    static let fieldsKeptOn304: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .contentRange, .transferEncoding]

    /// `entry` renewed by a 304 that selected it: its header fields updated with the 304's
    /// (§4.3.4, §3.2) and its request and response times those of the 304's exchange.
    ///
    /// The stored `Age` goes unless the 304 brings its own: it measured the old response's time
    /// in caches upstream, and kept beside the 304's response time it would make the renewed
    /// entry old from the start.
    public static func renewed(_ entry: StoredResponse, notModified: HTTPFields, requestTime: Date, responseTime: Date) -> StoredResponse {
        var renewed = entry
        let fields = HopByHopFields.removed(from: notModified)
        let names = Set(fields.map(\.name)).subtracting(fieldsKeptOn304)
        for name in names { renewed.headerFields[values: name] = fields[values: name] }
        if !names.contains(.age) { renewed.headerFields[.age] = nil }
        renewed.requestTime = requestTime
        renewed.responseTime = responseTime
        return renewed
    }
}
