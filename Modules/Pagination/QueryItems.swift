import Foundation

/// Reading and setting query parameters of page URLs, keeping every other parameter as it is.
public enum QueryItems {
    /// The names of `url`'s query items, in order.
    public static func names(in url: URL) -> [String] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
    }

    /// The value of the first query item called `name`.
    public static func value(of name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    /// Sets (or, with `nil`, removes) one query item, keeping the others in order and as they were
    /// written: their escapes, and a `+` that means a space in a search (`q=a+b`), reach the server
    /// unchanged. Only the value set is escaped here (``escaped(_:)``).
    public static func setting(_ name: String, to value: String?, in url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = components.percentEncodedQueryItems ?? []
        // A name without escapes is compared as written (most are): decoding it would cost more
        // than the rest of the edit.
        let isNamed = { (item: URLQueryItem) in
            item.name == name || item.name.contains("%") && item.name.removingPercentEncoding == name
        }
        if let value, let index = items.firstIndex(where: isNamed) {
            items[index].value = escaped(value)
            items = items.enumerated().filter { $0.offset <= index || !isNamed($0.element) }.map(\.element)
        } else if let value {
            items.append(URLQueryItem(name: escaped(name), value: escaped(value)))
        } else {
            items.removeAll(where: isNamed)
        }
        components.percentEncodedQueryItems = items.isEmpty ? nil : items
        return components.url ?? url
    }

    /// `text` escaped for a query item: all but the unreserved characters and `/?:@!$'()*,;`, so
    /// `&`, `=`, `#` and `%` cannot end it, and a `+` is not read as a space (as servers read it).
    static func escaped(_ text: String) -> String {
        // Most values (a cursor, a number) need no escape: looked at byte by byte here, rather
        // than through Foundation's call, which goes through a bridged string on every page.
        if text.utf8.allSatisfy({ allowedBytes.contains($0) }) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: allowedInItems) ?? text
    }

    private static let allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?:@!$'()*,;"
    private static let allowedInItems = CharacterSet(charactersIn: allowed)
    private static let allowedBytes = Set(allowed.utf8)
}
