import Foundation
import HTTPTypes

/// Every paged route: a collection in a pagination style at a path (``Route/pagedCollection(defaultStyle:)``).
struct PageRoutes: Sendable {
    let store: MockStore
    let validators: Validators
    /// The style of `GET /NAME` (`--style`).
    let defaultStyle: MockPaginationStyle
    /// The key kind of each collection (fixed for a collection's life), to parse cursors and
    /// `starting_after` before looking for a kept page.
    let keyKinds: [String: ItemCollection.KeyKind]

    /// Dispatches a GET or HEAD already matched to a paged route.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        guard let (style, name) = request.route.pagedCollection(defaultStyle: defaultStyle), let keyKind = keyKinds[name] else {
            throw .notFound("no collection at \(request.route.template)")
        }
        let query = try PageQuery(style.paging, query: request.query, keyKind: keyKind)
        let since = try SinceParameter(request.query)
        // Pages with absolute links depend on the address the client used; relative links only without one.
        let origin = style.carriesURLs ? request.origin : ""
        let path = request.route.template
        let key = "\(origin)\(path)?\(query.canonical)\(since?.queryPart ?? "")"
        let representation = try store.representation(of: .collection(name), key: key) { data throws(APIError) in
            guard let collection = data.collections[name] else { throw .notFound("no collection \(name)") }
            let renderer = PageRenderer(
                style: style, collection: since.map { since in collection.filtered(since.includes) } ?? collection, path: path,
                origin: origin, carriedQuery: since?.queryPart ?? "", includesTotalCount: request.route == .articles)
            return try renderer.render(query)
        }
        return validators.reply(to: request.headers, with: representation)
    }
}
