import Foundation
import HTTPTypes

/// Builds one page of a collection in one style: the body, the `Link` header of the `link`
/// style, and the page's change time.
struct PageRenderer: Sendable {
    let style: MockPaginationStyle
    let collection: ItemCollection
    /// The path the page was requested at, which its links point back to (`/styles/link/posts`).
    let path: String
    /// `http://HOST:PORT` of the request, which absolute links start with ("" for relative links).
    let origin: String
    /// Query parameters every link carries on after the paging ones (`&since=…`).
    var carriedQuery = ""
    /// Adds `X-Total-Count` (the `/articles` route).
    var includesTotalCount = false

    /// The page `query` asks for.
    /// - Throws: 404 for a page past the last in the `page-404` style.
    func render(_ query: PageQuery) throws(APIError) -> RepresentationContent {
        let window = PageWindow(query, in: collection)
        var headers = HTTPFields()
        let body: Data
        switch (style, query) {
        case (.link, .pageNumber(let page, let perPage)):
            headers[.link] = linkHeader(page: page, perPage: perPage)
            body = JSONObjectBuilder.array(of: window.items)
        case (.page404, .pageNumber(let page, _)):
            if page > 1 && window.items.isEmpty {
                throw .notFound("page \(page) is past the last page of \(collection.name)")
            }
            body = JSONObjectBuilder.array(of: window.items)
        case (.offsetTotal, .offset(let offset, let limit)), (.offset, .offset(let offset, let limit)):
            var object = JSONObjectBuilder()
            object.add("items", raw: JSONObjectBuilder.array(of: window.items))
            object.add("offset", offset)
            object.add("limit", limit)
            if style == .offsetTotal { object.add("total", collection.count) }
            body = object.data
        case (.hasMore, .startingAfter):
            var object = JSONObjectBuilder()
            object.add("data", raw: JSONObjectBuilder.array(of: window.items))
            object.add("has_more", window.hasNext)
            object.add("object", "list")
            object.add("url", path)
            body = object.data
        case (_, .cursor(let cursor, let limit)):
            body = cursorPage(window, cursor: cursor, limit: limit)
        default:
            preconditionFailure("\(style.rawValue) does not page by \(query)")
        }
        if includesTotalCount { headers[.xTotalCount] = String(collection.count) }
        let newest = window.items.lazy.map(\.updatedAt).max() ?? collection.baseline
        return RepresentationContent(body: body, headers: headers, changed: .notBefore(newest))
    }

    // MARK: Styles

    /// The body of the cursor styles (next-url, links-next, cursor-*).
    private func cursorPage(_ window: PageWindow, cursor: KeysetCursor?, limit: Int) -> Data {
        let items = JSONObjectBuilder.array(of: window.items)
        let next = window.hasNext ? window.items.last.map { KeysetCursor(.after, $0.key) } : nil
        let previous = window.hasPrevious ? window.items.first.map { KeysetCursor(.before, $0.key) } : nil
        var object = JSONObjectBuilder()
        switch style {
        case .nextURL:
            object.add("results", raw: items)
            object.add("next", url(next, limit: limit))
            object.add("previous", url(previous, limit: limit))
        case .linksNext:
            object.add("data", raw: items)
            var links = JSONObjectBuilder()
            links.add("next", url(next, limit: limit))
            links.add("prev", url(previous, limit: limit))
            links.add("self", pageURL(cursor, limit: limit))
            object.add("links", raw: links.data)
        default:
            object.add("data", raw: items)
            switch (next, style) {
            case (let next?, _): object.add("next_cursor", next.encoded)
            case (nil, .cursorNull): object.add("next_cursor", JSONTree.null)
            case (nil, .cursorEmpty): object.add("next_cursor", "")
            case (nil, .cursorZero): object.add("next_cursor", "0")
            default: break  // cursor-absent: no member at all
            }
        }
        return object.data
    }

    /// The absolute URL of the page `cursor` names, `null` when there is no such page.
    private func url(_ cursor: KeysetCursor?, limit: Int) -> JSONTree {
        cursor.map { .string(pageURL($0, limit: limit)) } ?? .null
    }

    /// The absolute URL of the page `cursor` names (the first page for `nil`).
    private func pageURL(_ cursor: KeysetCursor?, limit: Int) -> String {
        "\(origin)\(path)?limit=\(limit)" + (cursor.map { "&cursor=\($0.encoded)" } ?? "") + carriedQuery
    }

    /// `Link` with first, prev (from page 2), next (before the last page) and last, as GitHub sends
    /// it, in RFC 8288's form: `<URL>; rel="next", <URL>; rel="last"`.
    private func linkHeader(page: Int, perPage: Int) -> String {
        let lastPage = max(1, (collection.count + perPage - 1) / perPage)
        func link(_ number: Int, _ relation: String) -> String {
            "<\(origin)\(path)?page=\(number)&per_page=\(perPage)\(carriedQuery)>; rel=\"\(relation)\""
        }
        var links = [link(1, "first")]
        if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
        if page < lastPage { links.append(link(page + 1, "next")) }
        links.append(link(lastPage, "last"))
        return links.joined(separator: ", ")
    }
}

extension HTTPField.Name {
    /// RFC 8288 `Link`.
    static let link = HTTPField.Name("Link")!
    /// The collection size of a paged array response (`/articles`).
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
}
