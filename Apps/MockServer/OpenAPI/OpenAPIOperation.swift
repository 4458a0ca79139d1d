import HTTPTypes

/// The OpenAPI description of one operation (route and method): summary, parameters, request
/// body, success response and the error statuses it can answer.
struct OpenAPIOperation {
    var summary: String
    var parameters: [[String: Any]] = []
    var requestBody: [String: Any]?
    var success: [String: Any]
    var errors: [String] = []

    /// Statuses any API operation may answer besides its own: a rate limit (429, or 403 with
    /// `--rate-limit-status 403` and `--secondary-limit`) or an injected fault.
    private static let limits = ["403", "429", "503"]

    /// `since` on every paged route.
    private static var sinceParameter: [String: Any] {
        ["name": SinceParameter.name, "in": "query", "required": false,
         "description": "Only items updated at or after this time (ISO 8601, e.g. 2024-01-01T00:00:00Z)",
         "schema": ["type": "string", "format": "date-time"]]
    }

    init(route: Route, method: HTTPRequest.Method, document: OpenAPIDocument) {
        let readErrors = ["304", "400"] + Self.limits
        let writeErrors = ["400", "404", "412", "413", "428"] + Self.limits
        switch (route, method) {
        // MARK: Pages
        case (.posts, .get), (.articles, _), (.feed, _), (.collection, .get), (.styled, _):
            let (style, name) = route.pagedCollection(defaultStyle: document.defaultStyle) ?? (.link, "")
            summary = Self.pageSummary(route, style: style, collection: name)
            parameters = PageParameter.parameters(of: style.paging).map { Self.parameter($0, keyKind: document.collections[name]?.keyKind) }
                + [Self.sinceParameter]
            success = ["200": OpenAPISchemas.pageResponse(style, items: OpenAPISchemas.ref(document.itemSchemaName(name)),
                                                          totalCount: route == .articles)]
            errors = readErrors + (style == .page404 ? ["404"] : [])
            if case .collection = route, let members = document.filterMembers[name] {
                parameters += Self.jsonServerParameters(members: members)
                success = ["200": OpenAPISchemas.jsonServerPageResponse(style, items: OpenAPISchemas.ref(document.itemSchemaName(name)))]
                summary += "; or json-server's conventions (_page with _limit or _per_page, _sort, _order, q, MEMBER=VALUE), without the style's parameters"
            }
        case (.news, _):
            summary = "news, newest first: a JSON array with Link and X-Total-Count; by page and per_page, or by offset and limit "
                + "when offset is given; new entries join the front while it is listed (--news-arrivals)"
            parameters = [PageParameter.page, .perPage, .offset, .limit].map { Self.parameter($0, keyKind: .integer) } + [Self.sinceParameter]
            success = ["200": OpenAPISchemas.pageResponse(.link, items: OpenAPISchemas.ref("Post"), totalCount: true)]
            errors = readErrors

        // MARK: Posts
        case (.posts, _):
            summary = "Create a post; 201 with Location and ETag"
            requestBody = Self.jsonBody(OpenAPISchemas.ref("NewPost"))
            success = ["201": OpenAPISchemas.json("Post", "Created")]
            errors = ["400", "413"] + Self.limits
        case (.post, .get):
            summary = "One post"
            success = ["200": OpenAPISchemas.json("Post")]
            errors = ["304", "404"] + Self.limits
        case (.post, .put):
            summary = "Replace a post (honours If-Match)"
            requestBody = Self.jsonBody(OpenAPISchemas.ref("NewPost"))
            success = ["200": OpenAPISchemas.json("Post")]
            errors = writeErrors
        case (.post, .patch):
            summary = "Change some fields of a post (honours If-Match); a field cannot be null"
            requestBody = Self.jsonBody(OpenAPISchemas.ref("PostPatch"))
            success = ["200": OpenAPISchemas.json("Post")]
            errors = writeErrors
        case (.post, _):
            summary = "Delete a post (honours If-Match)"
            success = ["204": ["description": "Deleted"]]
            errors = ["404", "412", "428"] + Self.limits

        // MARK: Items of any collection
        case (.collection(let name), _):
            let key = document.collections[name]
            summary = "Create an item of \(name): any JSON object; \(key?.keyField ?? "id") is drawn when absent; 201 with Location and ETag"
            requestBody = Self.jsonBody(Self.newItemSchema(key))
            success = ["201": OpenAPISchemas.json(document.itemSchemaName(name), "Created")]
            errors = ["400", "409", "413"] + Self.limits
        case (.item(let name), .get):
            summary = "One item of \(name)"
            success = ["200": OpenAPISchemas.json(document.itemSchemaName(name))]
            errors = ["304", "404"] + Self.limits
        case (.item(let name), .put):
            summary = "Replace an item of \(name) with any JSON object (honours If-Match); its key stays"
            requestBody = Self.jsonBody(["type": "object"])
            success = ["200": OpenAPISchemas.json(document.itemSchemaName(name))]
            errors = writeErrors
        case (.item(let name), .patch):
            summary = "Change members of an item of \(name) (honours If-Match): application/json replaces the members "
                + "given, application/merge-patch+json merges (RFC 7396: null removes); its key stays"
            requestBody = ["required": true, "content": [
                "application/json": ["schema": ["type": "object"]],
                CollectionRoutes.mergePatchType: ["schema": ["type": "object"]],
            ]]
            success = ["200": OpenAPISchemas.json(document.itemSchemaName(name))]
            errors = writeErrors
        case (.item(let name), _):
            summary = "Delete an item of \(name) (honours If-Match)"
            success = ["204": ["description": "Deleted"]]
            errors = ["404", "412", "428"] + Self.limits

        // MARK: Documents
        case (.exercises, _):
            summary = "The whole exercise database (about 1 MB)"
            success = ["200": OpenAPISchemas.json("ExerciseDatabase")]
            errors = ["304"] + Self.limits
        case (.styleIndex, _):
            summary = "Every pagination style: its page shape, how to ask for the next page, its end condition and its URLs"
            success = ["200": OpenAPISchemas.json("StyleIndex")]
            errors = ["304"] + Self.limits
        case (.database, _):
            summary = "Every collection in one object, as the --data file holds them (json-server's GET /db)"
            success = ["200": ["description": "OK", "content": ["application/json": ["schema": ["type": "object", "additionalProperties": [
                "type": "array", "items": ["type": "object"]]]]]]]
            errors = ["304"] + Self.limits
        case (.openAPI, _):
            summary = "This document"
            success = ["200": ["description": "OpenAPI 3.1 document", "content": ["application/json": ["schema": ["type": "object"]]]]]
            errors = ["304"] + Self.limits

        // MARK: A mirror
        case (.mirrored(let path), _):
            summary = "The pages of the mirrored collection at \(path), as fresh sync recorded them, with their query parameters "
                + "(any order) and the origin's validators; a request no page answers is a miss: 404 not_recorded, naming the "
                + "nearest recorded URL and what differs"
            success = ["200": ["description": "The recorded page", "content": ["application/json": ["schema": [:] as [String: Any]]]]]
            errors = ["304", "404"] + Self.limits
        case (.misses, _):
            summary = "The URLs the mirror could not answer, on their origin, one a line (what fresh sync --input-file reads)"
            success = ["200": ["description": "OK", "content": ["text/plain": ["schema": ["type": "string"]]]]]

        // MARK: Admin
        case (.stats, _):
            summary = "Request statistics"
            success = ["200": OpenAPISchemas.json("Statistics")]
        case (.journal, _):
            summary = "The last requests, oldest first"
            parameters = [Self.integerParameter("limit", 1...AdminRoutes.maxJournalLimit, 50, "How many entries")]
            success = ["200": ["description": "OK", "content": ["application/json": ["schema": [
                "type": "array", "items": OpenAPISchemas.ref("JournalEntry")]]]]]
            errors = ["400"]
        case (.faults, .put):
            summary = "Replace the fault rules"
            requestBody = Self.jsonBody(OpenAPISchemas.faultSettings(routes: document.routes))
            success = ["200": OpenAPISchemas.json("FaultSettings")]
            errors = ["400", "413"]
        case (.faults, _):
            summary = method == .delete ? "Remove every fault rule" : "The active fault rules"
            success = ["200": OpenAPISchemas.json("FaultSettings")]
        case (.reset, _):
            summary = "Back to the data the server started with; clears faults set at run time, stats, journal and the rate limit window"
            success = ["200": OpenAPISchemas.json("ResetStatus")]
        default:
            summary = "Simulate n edits, new posts and deletions on /posts"
            parameters = [Self.integerParameter("n", 1...AdminRoutes.maxTickSteps, 1, "Number of changes")]
            success = ["200": OpenAPISchemas.json("TickSummary")]
            errors = ["400"]
        }
    }

    // MARK: Building blocks

    private static func pageSummary(_ route: Route, style: MockPaginationStyle, collection: String) -> String {
        let base = "\(collection) in the \(style.rawValue) style: \(style.shape); next page: \(style.nextPage); last page: \(style.endCondition)"
        switch route {
        case .articles: return base + "; X-Total-Count"
        case .collection: return base + " (--style)"
        default: return base
        }
    }

    /// json-server's parameters on a `--data` collection, and a filter for each member of its items.
    private static func jsonServerParameters(members: [String]) -> [[String: Any]] {
        let text: [String: Any] = ["type": "string", "minLength": 1]
        return [
            integerParameter("_page", 1...PageParameter.maxPosition, 1, "json-server: page number from 1"),
            integerParameter("_limit", 1...PageParameter.maxPosition, JSONServerQuery.defaultLimit, "json-server 0.17: page size with _page (a bare array, Link, X-Total-Count), or the first N"),
            integerParameter("_per_page", 1...PageParameter.maxPosition, 10, "json-server 1.0: page size with _page (an object with first, prev, next, last, pages, items, data)"),
            ["name": "_sort", "in": "query", "required": false, "description": "json-server: members to sort by, comma-separated, - before one for descending", "schema": text],
            ["name": "_order", "in": "query", "required": false, "description": "json-server 0.17: asc or desc for each _sort member",
             "schema": ["type": "string", "pattern": "^(asc|desc)(,(asc|desc))*$"]],
            ["name": "q", "in": "query", "required": false, "description": "json-server: items with this text in any string value, ignoring case", "schema": text],
        ] + members.filter { !JSONServerQuery.names.contains($0) }.map { member in
            ["name": member, "in": "query", "required": false, "description": "json-server: items whose \(member) is this value (as text)", "schema": ["type": "string"]]
        }
    }

    /// A query parameter of a page.
    private static func parameter(_ parameter: PageParameter, keyKind: ItemCollection.KeyKind?) -> [String: Any] {
        switch parameter.kind {
        case .integer(let range, let defaultValue):
            return integerParameter(parameter.name, range, defaultValue, parameter.summary)
        case .cursor:
            return ["name": parameter.name, "in": "query", "required": false, "description": parameter.summary,
                    "schema": ["type": "string", "pattern": KeysetCursor.pattern(for: keyKind ?? .integer)]]
        case .key:
            let schema: [String: Any] = keyKind == .string
                ? ["type": "string", "minLength": 1]
                : ["type": "integer", "minimum": Int.min, "maximum": Int.max]
            return ["name": parameter.name, "in": "query", "required": false, "description": parameter.summary, "schema": schema]
        }
    }

    private static func integerParameter(_ name: String, _ range: ClosedRange<Int>, _ defaultValue: Int, _ summary: String) -> [String: Any] {
        ["name": name, "in": "query", "required": false, "description": summary,
         "schema": ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound, "default": defaultValue]]
    }

    private static func jsonBody(_ schema: [String: Any]) -> [String: Any] {
        ["required": true, "content": ["application/json": ["schema": schema]]]
    }

    /// A created item: any object; its key, when given, of the collection's kind.
    private static func newItemSchema(_ key: (keyField: String, keyKind: ItemCollection.KeyKind)?) -> [String: Any] {
        guard let key else { return ["type": "object"] }
        return ["type": "object", "properties": [key.keyField: OpenAPIDocument.keySchema(key.keyKind)]]
    }
}
