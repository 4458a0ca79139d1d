import Foundation
import JSON

/// Everything needed to read a collection's pages, detected from the first page (``PaginationDetector``)
/// or given by the user, then stored with the collection so every later sync reads the pages the same way.
public struct PaginationPlan: Sendable, Equatable, Codable {
    public var style: PaginationStyle
    /// Where the array of items is: the root for a bare array, `data`, `results.items`, …
    public var items: JSONPath
    /// The member that keys an item within the collection (`id`, `uuid`, `user.login`, …).
    public var key: JSONPath
    /// The query parameter that sets the page size (`limit`, `per_page`, …), when known.
    public var sizeParameter: String?
    /// Where a page states the collection's size (`total_count`, `hits.total.value`; `X-Total-Count`
    /// says it too), for the styles whose end is not counted from it, and for ``PartialMirror``.
    public var total: JSONPath?

    public init(style: PaginationStyle, items: JSONPath, key: JSONPath, sizeParameter: String?, total: JSONPath? = nil) {
        self.style = style
        self.items = items
        self.key = key
        self.sizeParameter = sizeParameter
        self.total = total
    }

    /// How deep a page must be recorded to read the items' keys (array, item, key) and the stated total.
    public var recordedDepth: Int {
        var itemMember = key.components.count
        if case .after(_, let member?) = style { itemMember = max(itemMember, member.components.count) }
        return max(JSONDocument.recordedDepth, items.components.count + 1 + itemMember, total?.components.count ?? 0)
    }

    /// Whether a response with `status` to the page request at `index` (0 for the first) ends
    /// the collection rather than failing it: a 404 past the last page of a page-number API.
    public func endsCollection(status: Int, pageIndex: Int) -> Bool {
        if case .page = style { return status == 404 && pageIndex > 0 }
        return false
    }
}

/// The query parameters that commonly set a page size, in the order they are looked for.
public enum PageSize {
    public static let parameterNames = ["limit", "per_page", "page_size", "pageSize", "perPage", "size", "_limit", "_per_page",
                                        "max_results", "maxResults", "first", "take", "per-page", "pagesize", "count"]

    /// The size parameter already in `url`, if any.
    public static func parameter(in url: URL) -> String? {
        let names = Set(QueryItems.names(in: url))
        return parameterNames.first(where: names.contains)
    }

    /// `url` asking for `size` items per page, by `parameter`, else the URL's own size parameter, else `limit`.
    public static func url(_ url: URL, size: Int?, parameter: String?) -> URL {
        guard let size else { return url }
        return QueryItems.setting(parameter ?? Self.parameter(in: url) ?? "limit", to: String(size), in: url)
    }
}

extension PaginationPlan {
    /// Whether this plan is what `overrides` ask for, so that a sync given them again (a
    /// source's remembered `--paginate`, `--items`, `--key`) keeps the pass and its 304s instead
    /// of reading the pages anew.
    public func agrees(with overrides: PaginationDetector.Overrides) -> Bool {
        if let items = overrides.items, items != self.items { return false }
        if let key = overrides.key, key != self.key { return false }
        guard let spec = overrides.paginate else { return true }
        guard spec.style == style.name else { return false }
        return spec.options.allSatisfy { name, value in
            name == "size" ? value == sizeParameter : style.setting(name) == value
        }
    }
}

extension PaginationStyle {
    /// The value of a `--paginate` setting (`path`, `param`, …) in this style, as written.
    func setting(_ name: String) -> String? {
        switch (self, name) {
        case (.nextURL(let path), "path"), (.cursor(let path, _, _), "path"), (.hasMore(let path, _), "path"): path.description
        case (.cursor(_, let parameter, _), "param"), (.hasMore(_, let parameter), "param"), (.offset(let parameter, _), "param"),
             (.page(let parameter, _, _, _), "param"): parameter
        case (.after(let parameter, _), "param"): parameter
        case (.after(_, let member), "from"): member?.description
        case (.cursor(_, _, let hasMore), "has-more"): hasMore?.description
        case (.offset(_, let total), "total"), (.page(_, _, _, let total), "total"): total?.description
        case (.page(_, _, let totalPages, _), "total-pages"): totalPages?.description
        case (.page(_, let start, _, _), "start"): String(start)
        default: nil
        }
    }
}
