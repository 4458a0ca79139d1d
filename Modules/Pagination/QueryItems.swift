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
