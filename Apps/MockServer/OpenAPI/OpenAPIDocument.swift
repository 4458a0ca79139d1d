import Foundation
import HTTPTypes

/// `GET /openapi.json`: an OpenAPI 3.1 description of every route this server answers, built
/// from its ``RouteTable`` and its data, so no route can be left out and every parameter states
/// exactly what the server accepts (a test requests each documented operation on a live server,
/// and schemathesis checks the rest: `make api-check`).
struct OpenAPIDocument {
    let routes: RouteTable
    /// Key field and key kind of each collection.
    let collections: [String: (keyField: String, keyKind: ItemCollection.KeyKind)]
    /// The style of `GET /NAME`.
    let defaultStyle: MockPaginationStyle
    /// Whether the server serves its seeded data (posts, articles and feed have schemas of their own).
    let isSeeded: Bool
    /// The member names of each `--data` collection's items: json-server's filters on `GET /NAME`.
    let filterMembers: [String: [String]]

    init(routes: RouteTable, data: MockData, configuration: MockServerConfiguration) {
        self.routes = routes
        self.collections = data.collections.mapValues { ($0.keyField, $0.keyKind) }
        self.defaultStyle = configuration.defaultStyle
        self.isSeeded = configuration.dataFile == nil && configuration.mirror == nil
        self.filterMembers = configuration.dataFile == nil ? [:] : data.collections.mapValues { $0.memberNames.sorted() }
    }

    /// The document as representation content (it never changes while the server runs).
    var content: RepresentationContent {
        RepresentationContent(encoding: JSONObject(value: document), changed: .exactly(SeedData.epoch))
    }

    var document: [String: Any] {
        var paths: [String: Any] = [:]
        for route in routes.routes {
            var item: [String: Any] = [:]
            for method in route.methods where method != .head {
                item[method.rawValue.lowercased()] = operation(route, method)
            }
            if let id = idParameter(route) { item["parameters"] = [id] }
            paths[route.template] = item
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "fresh-mock",
                "version": FreshMockCommand.version,
                "description": "Mock API with real validators and Cache-Control, every common pagination style "
                    + "(/styles), writes with If-Match, a rate limit, fault injection and statistics.",
            ],
            "paths": paths,
            "components": ["schemas": OpenAPISchemas.components(itemSchemas: itemSchemas)],
        ]
    }

    // MARK: Operations

    private func operation(_ route: Route, _ method: HTTPRequest.Method) -> [String: Any] {
        let description = OpenAPIOperation(route: route, method: method, document: self)
        var responses: [String: Any] = description.success
        for code in description.errors { responses[code] = code == "304" ? OpenAPISchemas.notModified : OpenAPISchemas.json("Error", "Error") }
        var operation: [String: Any] = [
            "operationId": Self.operationID(route, method), "summary": description.summary, "responses": responses,
        ]
        if !description.parameters.isEmpty { operation["parameters"] = description.parameters }
        if let body = description.requestBody { operation["requestBody"] = body }
        if route.isAdmin { operation["tags"] = ["admin"] }
        return operation
    }

    /// `get_styles_has-more_users`, `put__admin_faults`: the method and the template's segments.
    static func operationID(_ route: Route, _ method: HTTPRequest.Method) -> String {
        let segments = route.template.split(separator: "/").map { $0.filter { $0 != "{" && $0 != "}" } }
        return ([method.rawValue.lowercased()] + segments).joined(separator: "_")
    }

    /// The `{id}` path parameter of an item route.
    private func idParameter(_ route: Route) -> [String: Any]? {
        switch route {
        case .post:
            return ["name": "id", "in": "path", "required": true, "description": "Post id", "schema": ["type": "integer"]]
        case .item(let name):
            let kind = collections[name]?.keyKind ?? .integer
            return ["name": "id", "in": "path", "required": true, "description": "Key of an item of \(name)",
                    "schema": Self.keySchema(kind)]
        default:
            return nil
        }
    }

    // MARK: Item schemas

    /// The schema of a key: an integer, or a non-empty string.
    static func keySchema(_ kind: ItemCollection.KeyKind) -> [String: Any] {
        kind == .integer ? ["type": "integer"] : ["type": "string", "minLength": 1]
    }

    /// The schema name of the items of `collection`: seeded collections with a model of their own
    /// have its schema.
    func itemSchemaName(_ collection: String) -> String {
        let modelSchemas = [ItemCollection.postsName: "Post", ItemCollection.newsName: "Post", "articles": "Article", "feed": "FeedItem"]
        return (isSeeded ? modelSchemas[collection] : nil) ?? "Item_\(collection)"
    }

    /// The schemas of the items of collections of any JSON object: an object with its key.
    private var itemSchemas: [String: Any] {
        var schemas: [String: Any] = [:]
        for (name, collection) in collections where itemSchemaName(name).hasPrefix("Item_") {
            schemas[itemSchemaName(name)] = [
                "type": "object",
                "description": "An item of \(name): any JSON object; \(collection.keyField) is its key.",
                "properties": [collection.keyField: Self.keySchema(collection.keyKind)],
                "required": [collection.keyField],
            ]
        }
        return schemas
    }
}
