import HTTPFields

/// The content codings this server can send (RFC 9110 §8.4.1), and the choice among them that
/// a request's `Accept-Encoding` makes (§12.5.3).
enum ContentCoding: Sendable, Equatable {
    case identity
    case gzip

    /// gzip when `Accept-Encoding` gives `gzip` (or `x-gzip`), or else `*`, a non-zero
    /// weight; identity otherwise, and always without the field. Malformed members are skipped.
    static func preferred(acceptEncoding: String?) -> ContentCoding {
        guard let acceptEncoding else { return .identity }
        var gzipWeight: Double?
        var wildcardWeight: Double?
        for member in FieldList.elements(acceptEncoding) {
            let parameters = member.split(separator: ";")
            guard let name = parameters.first.map({ String($0).trimmingWhitespace().lowercased() }), !name.isEmpty else { continue }
            let weight = parameters.dropFirst().lazy.compactMap(Self.weight(of:)).first ?? 1
            switch name {
            case "gzip", "x-gzip": gzipWeight = max(gzipWeight ?? 0, weight)
            case "*": wildcardWeight = weight
            default: continue
            }
        }
        return (gzipWeight ?? wildcardWeight ?? 0) > 0 ? .gzip : .identity
    }

    /// The value of a `q=` parameter, clamped to 0…1; `nil` for other or malformed parameters.
    private static func weight(of parameter: Substring) -> Double? {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, String(pair[0]).trimmingWhitespace().lowercased() == "q",
              let value = Double(String(pair[1]).trimmingWhitespace()), value.isFinite else { return nil }
        return min(max(value, 0), 1)
    }
}
