import Foundation
import HTTPFields
import HTTPTypes

/// Builds the cache keys of RFC 9111 §2 and §4.1.
public enum CacheKey {
    /// The primary key: method and the absolute URL with its query (each cursor page is its
    /// own entry) and without its fragment. HEAD shares GET's entry.
    public static func primary(method: HTTPRequest.Method, url: URL) -> String {
        let storedMethod = method == .head ? HTTPRequest.Method.get : method
        return "\(storedMethod.rawValue) \(normalized(url))"
    }

    /// The URL as the key spells it: fragment dropped, scheme and host lower-cased.
    public static func normalized(_ url: URL) -> String {
        let absolute = url.absoluteString
        if isAlreadyNormalized(absolute) { return absolute }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return absolute }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? absolute
    }

    /// Whether `absolute` already reads as ``normalized(_:)`` would spell it: ASCII, a lower-case
    /// scheme and plain lower-case host (no user info, no IP literal), a path, no fragment. The
    /// common case on every lookup, answered without parsing the URL again.
    static func isAlreadyNormalized(_ absolute: String) -> Bool {
        var absolute = absolute
        return absolute.withUTF8 { bytes in
            func isLowerLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
            var index = 0
            while index < bytes.count, isLowerLetter(bytes[index]) || bytes[index] == UInt8(ascii: "+")
                    || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            guard index > 0, bytes.count > index + 3, bytes[index] == UInt8(ascii: ":"),
                  bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else { return false }
            index += 3
            let authorityStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                let byte = bytes[index]
                guard isLowerLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard index > authorityStart, index < bytes.count, bytes[authorityStart] != UInt8(ascii: ":") else { return false }
            while index < bytes.count {
                let byte = bytes[index]
                guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else { return false }
                index += 1
            }
            return true
        }
    }

    /// The secondary key: the request's values of every field the response's `Vary` names,
    /// with whitespace normalised; a field the request lacks is spelled without `=`, since it
    /// only matches another request that lacks it too, not an empty value. `nil` when
    /// `Vary: *`, which never matches (§4.1).
    public static func variant(vary: [String], requestFields: HTTPFields) -> String? {
        if vary.isEmpty { return "" }
        let names = FieldList.elements(vary).map { $0.lowercased() }
        if names.contains("*") { return nil }
        return Set(names).sorted().map { name in
            let values = HTTPField.Name(name).map { requestFields[values: $0] } ?? []
            if values.isEmpty { return name }
            // The list grammar of HTTPFields: a comma inside a quoted string does not separate.
            let normalisedValue = FieldList.elements(values)
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
                .joined(separator: ",")
            return "\(name)=\(normalisedValue)"
        }.joined(separator: "\n")
    }
}
