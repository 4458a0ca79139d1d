import Foundation

/// The routes one server answers, which depend on its data: the seeded routes, or the
/// collections of a `--data` file. Matches request paths to routes, and knows every template
/// (for fault rules and `/openapi.json`).
struct RouteTable: Sendable {
    /// Every route, in the order `/openapi.json` lists them.
    let routes: [Route]
    /// The collections served in every style at `/styles/STYLE/NAME`.
    let styledCollections: [String]
    /// Routes without an `{id}`, by path.
    private let fixedPaths: [String: Route]
    /// Item routes by the collection segment in front of the `{id}`.
    private let itemRoutes: [String: Route]
    private let byTemplate: [String: Route]

    /// Whether a path no route names is a mirrored page (or a miss) rather than a 404 (`--mirror`).
    private var mirrorsAnyPath = false

    /// The routes of a mirror: its collections' paths (`mirroredPaths`, any other path being a page
    /// or a miss too), `/openapi.json` and the admin routes.
    init(mirroredPaths: [String]) {
        self.init(routes: Set(mirroredPaths).sorted().map(Route.mirrored) + [.openAPI, .stats, .journal, .faults, .reset, .misses],
                  styled: [])
        mirrorsAnyPath = true
    }

    /// The routes of the seeded data (`seeded`), or of the collections `collectionNames` of a `--data` file.
    init(seeded: Bool, collectionNames: [String]) {
        var routes: [Route] = []
        let styled: [String]
        if seeded {
            routes += [.posts, .post, .collection("users"), .item("users"), .articles, .feed, .news, .exercises]
            styled = [ItemCollection.postsName, "users"]
        } else {
            let names = collectionNames.sorted()
            routes += names.flatMap { [Route.collection($0), .item($0)] }
            if !names.contains("db") { routes.append(.database) }
            styled = names
        }
        routes.append(.styleIndex)
        routes += MockPaginationStyle.allCases.flatMap { style in styled.map { Route.styled(style, $0) } }
        routes.append(.openAPI)
        routes += [.stats, .journal, .faults, .reset]
        if seeded { routes.append(.tick) }
        self.init(routes: routes, styled: styled)
    }

    private init(routes: [Route], styled: [String]) {
        self.routes = routes
        self.styledCollections = styled
        var fixedPaths: [String: Route] = [:]
        var itemRoutes: [String: Route] = [:]
        for route in routes {
            switch route {
            case .post: itemRoutes[ItemCollection.postsName] = route
            case .item(let name): itemRoutes[name] = route
            default: fixedPaths[route.template] = route
            }
        }
        self.fixedPaths = fixedPaths
        self.itemRoutes = itemRoutes
        self.byTemplate = Dictionary(uniqueKeysWithValues: routes.map { ($0.template, $0) })
    }

    // MARK: Matching

    /// The route of `path` and, for an item route, its `{id}` segment percent-decoded; `nil` for
    /// unknown paths. One trailing slash is ignored.
    func match(_ path: String) -> (route: Route, id: String?)? {
        let trimmed = path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") ? String(path.dropLast()) : path
        if let route = fixedPaths[trimmed] {
            return (route, nil)
        }
        if mirrorsAnyPath { return trimmed.hasPrefix("/_admin/") ? nil : (.mirrored(trimmed), nil) }
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].isEmpty, !segments[2].isEmpty,
              let route = itemRoutes[String(segments[1])] else { return nil }
        let raw = String(segments[2])
        guard raw.contains("%") else { return (route, raw) }
        guard let decoded = raw.removingPercentEncoding else { return nil }
        return (route, decoded)
    }

    /// Why a fault rule's `route` cannot be used (`nil` when it can): it must be the template
    /// of an API route of this server.
    func problem(withFaultRoute template: String?) -> String? {
        guard let template else { return nil }
        guard let route = byTemplate[template], !route.isAdmin else {
            let examples = routes.filter { !$0.isAdmin }.prefix(3).map(\.template).joined(separator: ", ")
            return "'\(template)' is not an API route template of this server (such as \(examples))"
        }
        return nil
    }
}
