import Foundation

/// Pages named by where they are in the listing (a page number, an offset) rather than by what
/// they follow (a cursor, a key). In such a listing an item added at the front pushes every
/// other one further back while a pass reads it, so an item of one page comes back at the start
/// of the next: the listing moved; nothing is wrong with its keys.
public enum PositionalPages {
    /// The query parameters that name a page by position, as APIs spell them.
    static let parameterNames: Set<String> = [
        "page", "p", "pg", "pagenumber", "page_number", "pageno", "page_no", "_page",
        "offset", "skip", "start", "from", "startindex", "start_index", "_start", "$skip",
    ]

    /// Whether `url` names its page by position: a parameter above with a whole number as value.
    public static func isPositional(_ url: URL) -> Bool {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return false }
        return items.contains { item in parameterNames.contains(item.name.lowercased()) && item.value.flatMap { Int($0) } != nil }
    }
}

extension PaginationPlan {
    /// Whether the pages of this plan may move while a pass reads them: offset and page-number
    /// styles always; a `Link` or a next URL when the page's URL is positional (GitHub's `?page=2`).
    public func mayMove(at url: URL) -> Bool {
        switch style {
        case .offset, .page: true
        case .link, .nextURL: PositionalPages.isPositional(url)
        case .cursor, .hasMore, .after, .single: false
        }
    }
}
