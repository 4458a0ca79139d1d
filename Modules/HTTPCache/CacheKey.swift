import Foundation
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
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url.absoluteString
    }

    /// Whether `absolute` already reads as ``normalized(_:)`` would spell it: ASCII, a lower-case
    /// scheme and plain lower-case host (no user info, no IP literal), a path, no fragment. The
    /// common case on every lookup, answered without parsing the URL again.
    static func isAlreadyNormalized(_ absolute: String) -> Bool {
        var bytes = absolute.utf8[...]
        let scheme = bytes.prefix { $0 != UInt8(ascii: ":") }
        guard !scheme.isEmpty, scheme.allSatisfy({ (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            return false
        }
        bytes = bytes.dropFirst(scheme.count)
        guard bytes.starts(with: "://".utf8) else { return false }
        bytes = bytes.dropFirst(3)
        let authority = bytes.prefix { $0 != UInt8(ascii: "/") }
        guard !authority.isEmpty, authority.count < bytes.count,
              authority.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") }),
              authority.first != UInt8(ascii: ":") else { return false }
        return bytes.dropFirst(authority.count).allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }
    }

    /// The secondary key: the request's values of every field the response's `Vary` names,
    /// with whitespace normalised. `nil` when `Vary: *`, which never matches (§4.1).
    public static func variant(vary: [String], requestFields: HTTPFields) -> String? {
        if vary.isEmpty { return "" }
        let names = vary.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        if names.contains("*") { return nil }
        return Set(names).sorted().map { name in
            let values = HTTPField.Name(name).map { requestFields[values: $0] } ?? []
            let normalisedValue = values
                .flatMap { $0.split(separator: ",") }
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
                .joined(separator: ",")
            return "\(name)=\(normalisedValue)"
        }.joined(separator: "\n")
    }
}
