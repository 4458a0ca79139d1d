import JSON

/// How the pages of a collection point to each other (from the URL the user gave), and so how
/// the end is found. The names are those of `fresh sync --paginate`.
public enum PaginationStyle: Sendable, Equatable, Hashable, Codable {
    /// `Link: <…>; rel="next"` (RFC 8288); the end is a page without `rel="next"`.
    case link
    /// A next-page URL in the body at `path` (absolute or relative); the end is `null`, `""` or no member.
    case nextURL(path: JSONPath)
    /// A cursor in the body at `path`, sent back as the query parameter `parameter`; the end is
    /// `null`, absent, `""`, `"0"`, or `hasMore` (when the body has such a flag) being false.
    case cursor(path: JSONPath, parameter: String, hasMore: JSONPath?)
    /// A `hasMore` flag; the next page starts after the last item's key (`starting_after`).
    case hasMore(flag: JSONPath, parameter: String)
    /// Keyset or `search_after` paging: the next page starts after the last item, sent as
    /// `parameter` (its `member`, else its key; an array such as Elasticsearch's `sort` values
    /// goes as its JSON text); the end is an empty or short page.
    case after(parameter: String, member: JSONPath?)
    /// An item offset in `parameter`; the end is `total` when the body or `X-Total-Count`
    /// gives it, else a short or empty page.
    case offset(parameter: String, total: JSONPath?)
    /// A page number in `parameter`, counted from `start`; the end is the last page by a total
    /// (`totalPages` or `total` items), an empty or short page, or a 404 past the last page.
    case page(parameter: String, start: Int, totalPages: JSONPath?, total: JSONPath?)
    /// One document: the collection is a single page.
    case single

    /// The style's name in `--paginate`.
    public var name: String {
        switch self {
        case .link: "link"
        case .nextURL: "next-url"
        case .cursor: "cursor"
        case .hasMore: "has-more"
        case .after: "after"
        case .offset: "offset"
        case .page: "page"
        case .single: "single"
        }
    }

    /// Every style name, as `--help` lists them.
    public static let names = ["link", "next-url", "cursor", "has-more", "after", "offset", "page", "single"]

    /// A short description with its settings, for `fresh collections` and `-v`:
    /// `cursor (next_cursor → ?cursor=)`.
    public var summary: String {
        switch self {
        case .link: "link (Link: rel=\"next\")"
        case .nextURL(let path): "next-url (\(path))"
        case .cursor(let path, let parameter, let hasMore):
            "cursor (\(path) → ?\(parameter)=" + (hasMore.map { "; ends when \($0) is false" } ?? "") + ")"
        case .hasMore(let flag, let parameter): "has-more (\(flag); ?\(parameter)=<last key>)"
        case .after(let parameter, let member): "after (?\(parameter)=<last item's \(member?.description ?? "key")>)"
        case .offset(let parameter, let total): "offset (?\(parameter)=" + (total.map { "; total at \($0)" } ?? "") + ")"
        case .page(let parameter, let start, let totalPages, let total):
            "page (?\(parameter)= from \(start)" + (totalPages.map { "; pages at \($0)" } ?? "")
                + (total.map { "; total at \($0)" } ?? "") + ")"
        case .single: "single (one document)"
        }
    }
}
