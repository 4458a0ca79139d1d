import Foundation

/// Builds page URLs for the pagination styles of the API contract.
public enum PageURL {
    /// The URL of `token`'s page: `cursor` or `offset` set in `base`'s query (and `limit`, when
    /// given), other query items kept. A `.url` token (from a `Link` header) is used as it is.
    public static func url(base: URL, token: PageToken, limit: Int? = nil) -> URL {
        var url: URL
        switch token {
        case .url(let next): return next
        case .first: url = base
        case .cursor(let cursor): url = setting("cursor", to: cursor, in: base)
        case .offset(let offset): url = setting("offset", to: String(offset), in: base)
        }
        if let limit { url = setting("limit", to: String(limit), in: url) }
        return url
    }

    /// `url` without its position parameters (`cursor`, `offset`, `page`): the identity of
    /// the collection, under which its synced pages are recorded.
    public static func resource(of url: URL) -> String {
        ["cursor", "offset", "page"].reduce(url) { setting($1, to: nil, in: $0) }.absoluteString
    }

    /// Sets (or, with `nil`, removes) one query item, keeping the others in order.
    public static func setting(_ name: String, to value: String?, in url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = components.queryItems ?? []
        if let value {
            if let index = items.firstIndex(where: { $0.name == name }) {
                items[index].value = value
                items = items.enumerated().filter { $0.offset <= index || $0.element.name != name }.map(\.element)
            } else {
                items.append(URLQueryItem(name: name, value: value))
            }
        } else {
            items.removeAll { $0.name == name }
        }
        components.queryItems = items.isEmpty ? nil : items
        // URLComponents leaves "+" alone, but servers read it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? url
    }
}
