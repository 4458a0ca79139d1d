import Foundation
import HTTPTypes
import Testing

@testable import MockServer

// MARK: - StyleWalker

/// Walks a collection in one pagination style the way a client that knows the style would:
/// following each page's own "next" until the style's documented end, and checking that the
/// last page says so exactly as documented.
struct StyleWalker {
    /// One page as fetched.
    struct Page {
        /// Path and query requested.
        var path: String
        var status: Int
        var etag: String?
        var lastModified: String?
        /// The `id` of each item, as text.
        var keys: [String]
    }

    let client: MockClient
    /// The server's base URL, stripped from absolute links.
    let baseURL: String
    let style: MockPaginationStyle
    let collection: String
    let pageSize: Int

    /// The path of the first page.
    var firstPath: String {
        let size = style.paging == .pageNumber ? "per_page=\(pageSize)" : "limit=\(pageSize)"
        return "/styles/\(style.rawValue)/\(collection)?\(size)"
    }

    /// Every page up to and including the one that ends the walk (for page-404, the 404).
    func walk(maxPages: Int = 100) async throws -> [Page] {
        var pages: [Page] = []
        var path: String? = firstPath
        var page = 1
        var offset = 0
        while let current = path, pages.count < maxPages {
            let response = try await client.get(current)
            var fetched = Page(path: current, status: Int(response.status.code), etag: response.headers[.eTag],
                               lastModified: response.headers[.lastModified], keys: [])
            if style == .page404 && response.status == .notFound {
                pages.append(fetched)
                break
            }
            #expect(response.status == .ok, "\(current) → \(response.status)")
            let json = try JSONSerialization.jsonObject(with: Data(response.text.utf8), options: [.fragmentsAllowed])
            let object = json as? [String: Any]
            let items = (json as? [[String: Any]]) ?? (object?[Self.itemsMember(style)] as? [[String: Any]]) ?? []
            fetched.keys = items.map { "\($0["id"] ?? "?")" }
            pages.append(fetched)
            path = nil
            switch style {
            case .link:
                path = CatalogTests.links(response.headers[.link] ?? "")["next"].map(stripBase)
            case .nextURL:
                path = (object?["next"] as? String).map(stripBase)
                if path == nil { #expect(object?["next"] is NSNull) }
            case .linksNext:
                let links = object?["links"] as? [String: Any]
                path = (links?["next"] as? String).map(stripBase)
                if path == nil { #expect(links?["next"] is NSNull) }
            case .cursorNull, .cursorAbsent, .cursorEmpty, .cursorZero:
                let next = object?["next_cursor"]
                let ended: Bool
                switch style {
                case .cursorNull: ended = next is NSNull
                case .cursorAbsent: ended = next == nil
                case .cursorEmpty: ended = next as? String == ""
                default: ended = next as? String == "0"
                }
                if !ended {
                    let cursor = try #require(next as? String, "\(current): no next_cursor and not the end")
                    path = "/styles/\(style.rawValue)/\(collection)?limit=\(pageSize)&cursor=\(cursor)"
                }
            case .hasMore:
                let hasMore = try #require(object?["has_more"] as? Bool)
                #expect(object?["object"] as? String == "list")
                if hasMore, let last = fetched.keys.last {
                    let key = last.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? last
                    path = "/styles/has-more/\(collection)?limit=\(pageSize)&starting_after=\(key)"
                }
            case .offsetTotal:
                let total = try #require(object?["total"] as? Int)
                offset += items.count
                if offset < total { path = "/styles/offset-total/\(collection)?limit=\(pageSize)&offset=\(offset)" }
            case .offset:
                offset += items.count
                if items.count == pageSize { path = "/styles/offset/\(collection)?limit=\(pageSize)&offset=\(offset)" }
            case .page404:
                page += 1
                path = "/styles/page-404/\(collection)?per_page=\(pageSize)&page=\(page)"
            }
        }
        return pages
    }

    private func stripBase(_ url: String) -> String {
        url.hasPrefix(baseURL) ? String(url.dropFirst(baseURL.count)) : url
    }

    /// The member holding a page's items.
    static func itemsMember(_ style: MockPaginationStyle) -> String {
        switch style {
        case .nextURL: "results"
        case .offsetTotal, .offset: "items"
        default: "data"
        }
    }
}
