import Foundation
import HTTPTypes
import Models

// MARK: - CatalogRoutes

/// The read-only representations: `/articles` (page/per_page with a `Link` header), `/feed`
/// (offset/limit envelope), `/exercises` (one large document) and `/openapi.json`.
struct CatalogRoutes: Sendable {
    /// Page size of `/articles` and `/feed` when the request names none.
    static let defaultPageSize = 20
    /// Largest accepted page size.
    static let maxPageSize = 100

    let store: MockStore
    let validators: Validators

    /// Dispatches a GET or HEAD already matched to one of the catalog routes.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        let representation: Representation
        switch request.endpoint {
        case .articles: representation = try articles(request)
        case .feed: representation = try feed(request)
        case .exercises: representation = exercises()
        default:
            representation = store.representation(of: .documentation, key: "/openapi.json") { _ in
                OpenAPIDocument.representation()
            }
        }
        return validators.reply(to: request.headers, with: representation)
    }

    // MARK: Articles

    /// `GET /articles?page=&per_page=`: a JSON array, `Link` (first, prev, next, last) and `X-Total-Count`.
    /// Pages past the last are empty arrays, as on GitHub.
    private func articles(_ request: APIRequest) throws(APIError) -> Representation {
        let page = try request.query.integer("page", default: 1, in: 1...1_000_000)
        let perPage = try request.query.integer("per_page", default: Self.defaultPageSize, in: 1...Self.maxPageSize)
        let origin = request.authority.map { "http://\($0)" } ?? ""  // relative links only without any address
        return store.representation(of: .articles, key: "\(origin)/articles?page=\(page)&per_page=\(perPage)") { data in
            let total = data.articles.count
            let lastPage = max(1, (total + perPage - 1) / perPage)
            let start = min((page - 1) * perPage, total)
            let items = Array(data.articles[start..<min(start + perPage, total)])
            func link(_ number: Int, _ relation: String) -> String {
                "<\(origin)/articles?page=\(number)&per_page=\(perPage)>; rel=\"\(relation)\""
            }
            var links = [link(1, "first")]
            if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
            if page < lastPage { links.append(link(page + 1, "next")) }
            links.append(link(lastPage, "last"))
            var headers = HTTPFields()
            headers[.link] = links.joined(separator: ", ")
            headers[.xTotalCount] = String(total)
            return Representation(
                encoding: items, lastModified: items.map(\.publishedAt).max() ?? SeedData.epoch, extraHeaders: headers
            )
        }
    }

    // MARK: Feed

    /// `GET /feed?offset=&limit=`: `{"items", "total", "offset", "limit"}`.
    private func feed(_ request: APIRequest) throws(APIError) -> Representation {
        let offset = try request.query.integer("offset", default: 0, in: 0...1_000_000)
        let limit = try request.query.integer("limit", default: Self.defaultPageSize, in: 1...Self.maxPageSize)
        return store.representation(of: .feed, key: "/feed?offset=\(offset)&limit=\(limit)") { data in
            let start = min(offset, data.feed.count)
            let items = Array(data.feed[start..<min(start + limit, data.feed.count)])
            return Representation(
                encoding: FeedPage(items: items, total: data.feed.count, offset: offset, limit: limit),
                lastModified: SeedData.epoch
            )
        }
    }

    // MARK: Exercises

    /// `GET /exercises`: the whole database in one document of about a megabyte.
    private func exercises() -> Representation {
        store.representation(of: .exercises, key: "/exercises") { data in
            Representation(encoding: data.exercises, lastModified: SeedData.epoch)
        }
    }
}

extension HTTPField.Name {
    /// RFC 8288 `Link`.
    static let link = HTTPField.Name("Link")!
    /// The collection size of a paged array response.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
}
