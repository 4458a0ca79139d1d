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
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url.absoluteString
    }

    /// The secondary key: the request's values of every field the response's `Vary` names,
    /// with whitespace normalised. `nil` when `Vary: *`, which never matches (§4.1).
    public static func variant(vary: [String], requestFields: HTTPFields) -> String? {
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
