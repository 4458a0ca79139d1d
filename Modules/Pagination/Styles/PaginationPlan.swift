import Foundation
import JSON

/// Everything needed to read a collection's pages: the style, where the items are in a page,
/// which member keys an item, and the page size parameter. Detected from the first page (see
/// ``PaginationDetector``) or given by the user, then stored with the collection so every
/// later sync reads the pages the same way.
public struct PaginationPlan: Sendable, Equatable, Codable {
    public var style: PaginationStyle
    /// Where the array of items is: the root for a bare array, `data`, `results.items`, …
    public var items: JSONPath
    /// The member that keys an item within the collection (`id`, `uuid`, `user.login`, …).
    public var key: JSONPath
    /// The query parameter that sets the page size (`limit`, `per_page`, …), when known.
    public var sizeParameter: String?

    public init(style: PaginationStyle, items: JSONPath, key: JSONPath, sizeParameter: String?) {
        self.style = style
        self.items = items
        self.key = key
        self.sizeParameter = sizeParameter
    }

    /// How deep a page must be recorded to read the items' keys: the item array, the item, its key.
    public var recordedDepth: Int { max(JSONDocument.recordedDepth, items.components.count + 1 + key.components.count) }

    /// Whether a response with `status` to the page request at `index` (0 for the first) ends
    /// the collection rather than failing it: a 404 past the last page of a page-number API.
    public func endsCollection(status: Int, pageIndex: Int) -> Bool {
        if case .page = style { return status == 404 && pageIndex > 0 }
        return false
    }
}

/// The query parameters that commonly set a page size, in the order they are looked for.
public enum PageSize {
    public static let parameterNames = ["limit", "per_page", "page_size", "pageSize", "perPage", "size", "_limit",
                                        "max_results", "maxResults", "first", "take", "per-page", "pagesize", "count"]

    /// The size parameter already in `url`, if any.
    public static func parameter(in url: URL) -> String? {
        let names = Set(QueryItems.names(in: url))
        return parameterNames.first(where: names.contains)
    }

    /// `url` asking for `size` items per page: the URL's own size parameter (or `parameter`, or
    /// `limit`) set to `size`.
    public static func url(_ url: URL, size: Int?, parameter: String?) -> URL {
        guard let size else { return url }
        return QueryItems.setting(parameter ?? Self.parameter(in: url) ?? "limit", to: String(size), in: url)
    }
}
