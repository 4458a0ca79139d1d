/// The pagination styles of real APIs that fresh-mock serves, each over any collection at
/// `/styles/{style}/{collection}`. The raw value is the style's name in URLs, in `--style`, in
/// `/openapi.json` and in docs/mock-server.md.
///
/// Every style pages the same items in the same key order; they differ in how a page names the
/// next one and in how the last page says it is the last (``endCondition``).
public enum MockPaginationStyle: String, CaseIterable, Sendable {
    /// A bare JSON array; `Link` header with `rel="first"`, `"prev"`, `"next"`, `"last"` (GitHub).
    case link
    /// `{"next": URL|null, "previous": URL|null, "results": […]}` with absolute URLs (Django REST framework).
    case nextURL = "next-url"
    /// `{"data": […], "links": {"next": URL|null, "prev": URL|null, "self": URL}}` (JSON:API).
    case linksNext = "links-next"
    /// `{"data": […], "next_cursor": "…"}`, `null` on the last page.
    case cursorNull = "cursor-null"
    /// `{"data": […], "next_cursor": "…"}`, no `next_cursor` at all on the last page.
    case cursorAbsent = "cursor-absent"
    /// `{"data": […], "next_cursor": "…"}`, `""` on the last page (Slack).
    case cursorEmpty = "cursor-empty"
    /// `{"data": […], "next_cursor": "…"}`, `"0"` on the last page (`/posts`).
    case cursorZero = "cursor-zero"
    /// `{"data": […], "has_more": bool, …}`; the next page is `starting_after=<last id>` (Stripe).
    case hasMore = "has-more"
    /// `{"items": […], "total": n, "offset": o, "limit": l}` (`/feed`).
    case offsetTotal = "offset-total"
    /// `{"items": […], "offset": o, "limit": l}` with no total: ends at a short page.
    case offset
    /// A bare JSON array by `page` and `per_page`, no total: 404 past the last page.
    case page404 = "page-404"

    /// How a request names its page.
    enum Paging: Sendable {
        /// `page` (from 1) and `per_page`.
        case pageNumber
        /// `offset` (from 0) and `limit`.
        case offset
        /// An opaque `cursor` the previous page handed out, and `limit`.
        case cursor
        /// `starting_after`, the key of the last item seen, and `limit`.
        case startingAfter
    }

    /// How a request of this style names its page.
    var paging: Paging {
        switch self {
        case .link, .page404: .pageNumber
        case .offsetTotal, .offset: .offset
        case .nextURL, .linksNext, .cursorNull, .cursorAbsent, .cursorEmpty, .cursorZero: .cursor
        case .hasMore: .startingAfter
        }
    }

    /// Whether pages carry absolute URLs built from the request's `Host` (so the cached page
    /// depends on it).
    var carriesURLs: Bool {
        [.link, .nextURL, .linksNext].contains(self)
    }

    // MARK: Description

    /// One line on the shape of a page (for `--help`, `/styles` and `/openapi.json`).
    var shape: String {
        switch self {
        case .link: #"a JSON array; Link: <…>; rel="next", rel="prev", rel="first", rel="last""#
        case .nextURL: #"{"next": URL|null, "previous": URL|null, "results": […]}"#
        case .linksNext: #"{"data": […], "links": {"next": URL|null, "prev": URL|null, "self": URL}}"#
        case .cursorNull, .cursorAbsent, .cursorEmpty, .cursorZero: #"{"data": […], "next_cursor": "…"}"#
        case .hasMore: #"{"data": […], "has_more": true|false, "object": "list", "url": PATH}"#
        case .offsetTotal: #"{"items": […], "total": N, "offset": O, "limit": L}"#
        case .offset: #"{"items": […], "offset": O, "limit": L}"#
        case .page404: "a JSON array"
        }
    }

    /// How a client tells the last page (or that it went past it).
    var endCondition: String {
        switch self {
        case .link: #"no rel="next" in Link"#
        case .nextURL: #""next": null"#
        case .linksNext: #""links": {"next": null}"#
        case .cursorNull: #""next_cursor": null"#
        case .cursorAbsent: "no next_cursor member"
        case .cursorEmpty: #""next_cursor": """#
        case .cursorZero: #""next_cursor": "0""#
        case .hasMore: #""has_more": false"#
        case .offsetTotal: "offset + items ≥ total"
        case .offset: "fewer items than limit (possibly none)"
        case .page404: "404 for the page after the last"
        }
    }

    /// What the first page's URL in `/styles` carries so that a client can tell how to page:
    /// a bare array says nothing about its pages, so its URL names the page parameter.
    var firstPageQuery: String {
        self == .page404 ? "?page=1" : ""
    }

    /// How a client asks for the next page.
    var nextPage: String {
        switch self {
        case .link: #"follow rel="next""#
        case .nextURL: "follow next"
        case .linksNext: "follow links.next"
        case .cursorNull, .cursorAbsent, .cursorEmpty, .cursorZero: "cursor=<next_cursor>"
        case .hasMore: "starting_after=<key of the last item>"
        case .offsetTotal, .offset: "offset=<offset + limit>"
        case .page404: "page=<page + 1>"
        }
    }
}
