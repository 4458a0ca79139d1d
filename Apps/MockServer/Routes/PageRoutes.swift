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
    /// Whether `GET /NAME` takes json-server's conventions and refuses a parameter it does not
    /// understand (the collections of a `--data` file).
    var jsonServerConventions = false

    /// Dispatches a GET or HEAD already matched to a paged route.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        guard let (style, name) = request.route.pagedCollection(defaultStyle: defaultStyle), let keyKind = keyKinds[name] else {
            throw .notFound("no collection at \(request.route.template)")
        }
        if jsonServerConventions, case .collection = request.route,
           let conventions = try JSONServerQuery(request.query, filterNames: try filterNames(request.query, style: style, collection: name)) {
            let origin = request.origin
            return try store.reply(to: request.headers, of: .collection(name), key: "\(origin)/\(name)?\(conventions.canonical)",
                                   validators: validators) { data throws(APIError) in
                guard let collection = data.collections[name] else { throw .notFound("no collection \(name)") }
                return conventions.render(collection, path: request.route.template, origin: origin)
            }
        }
        let query = try PageQuery(style.paging, query: request.query, keyKind: keyKind)
        let since = try SinceParameter(request.query)
        // Pages with absolute links depend on the address the client used; relative links only without one.
        let origin = style.carriesURLs ? request.origin : ""
        let path = request.route.template
        let key = "\(origin)\(path)?\(query.canonical)\(since?.queryPart ?? "")"
        return try store.reply(to: request.headers, of: .collection(name), key: key, validators: validators) { data throws(APIError) in
            guard let collection = data.collections[name] else { throw .notFound("no collection \(name)") }
            let renderer = PageRenderer(
                style: style, collection: since.map { since in collection.filtered(since.includes) } ?? collection, path: path,
                origin: origin, carriedQuery: since?.queryPart ?? "", includesTotalCount: request.route == .articles)
            return try renderer.render(query)
        }
    }

    /// The parameters of `query` that name members of the collection's items (json-server's
    /// filters), once the style's, `since` and json-server's own are set aside.
    /// - Throws: 400 naming a parameter that is none of these (no item has such a member), or
    ///   the style's paging mixed with json-server's.
    private func filterNames(_ query: QueryParameters, style: MockPaginationStyle, collection name: String) throws(APIError) -> [String] {
        let paging = Set(PageParameter.parameters(of: style.paging).map(\.name))
        let given = query.names
        let others = given.filter { !paging.contains($0) && $0 != SinceParameter.name && !JSONServerQuery.names.contains($0) }
        if let mixed = given.first(where: paging.contains), given.contains(where: JSONServerQuery.names.contains) || !others.isEmpty {
            throw .invalidQuery(name: mixed, message: "pages in the \(style.rawValue) style; json-server's parameters (_page, _limit, _sort, q, filters) go without it")
        }
        guard !others.isEmpty else { return [] }
        let members = store.snapshot.collections[name]?.memberNames ?? []
        if let unknown = others.sorted().first(where: { !members.contains(String($0.split(separator: ".").first ?? "")) }) {
            throw .invalidQuery(name: unknown, message: "not understood: no item of \(name) has such a member, and it is not a parameter of "
                                + "the \(style.rawValue) style (\(paging.sorted().joined(separator: ", "))), since, or json-server's "
                                + "(\(JSONServerQuery.names.sorted().joined(separator: ", ")))")
        }
        return others
    }
}
