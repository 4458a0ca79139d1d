/// The 200 response of a page in each pagination style: the exact JSON shape (no other
/// members), and the `Link` header of the `link` style.
extension OpenAPISchemas {
    /// The 200 response of a page of `items` in `style`.
    static func pageResponse(_ style: MockPaginationStyle, items: [String: Any], totalCount: Bool) -> [String: Any] {
        var response: [String: Any] = [
            "description": "A page (\(style.rawValue)); last page: \(style.endCondition)",
            "content": ["application/json": ["schema": pageBody(style, items: items)]],
        ]
        var headers: [String: Any] = [:]
        if style == .link {
            headers["Link"] = ["description": #"rel="first", "prev" (from page 2), "next" (until the last page), "last""#,
                               "required": true, "schema": ["type": "string"]]
        }
        if totalCount {
            headers["X-Total-Count"] = ["description": "Items in the collection", "required": true, "schema": ["type": "string"]]
        }
        if !headers.isEmpty { response["headers"] = headers }
        return response
    }

    /// The 200 response of `GET /NAME` of a `--data` collection: a page in `style`, or what
    /// json-server's conventions answer (a bare array, or json-server 1.0's page object).
    static func jsonServerPageResponse(_ style: MockPaginationStyle, items: [String: Any]) -> [String: Any] {
        let array: [String: Any] = ["type": "array", "items": items]
        let page: [String: Any] = ["type": ["integer", "null"], "minimum": 1]
        let counted: [String: Any] = ["type": "integer", "minimum": 0]
        let newShape = object(["first": counted, "prev": page, "next": page, "last": counted, "pages": counted, "items": counted, "data": array],
                              required: ["first", "prev", "next", "last", "pages", "items", "data"])
        return [
            "description": "A page (\(style.rawValue)), or with json-server's parameters the items they choose",
            // `oneOf` allows no two alternatives one value matches: the link style's page is json-server's array.
            "content": ["application/json": ["schema": ["oneOf": [style == .link || style == .page404 ? nil : pageBody(style, items: items), array, newShape]
                .compactMap { $0 }]]],
            "headers": [
                "Link": ["description": #"the link style, or _page with _limit: rel="first", "prev", "next", "last""#, "schema": ["type": "string"]],
                "X-Total-Count": ["description": "with json-server's parameters: the items they choose", "schema": ["type": "string"]],
            ],
        ]
    }

    private static func pageBody(_ style: MockPaginationStyle, items: [String: Any]) -> [String: Any] {
        let array: [String: Any] = ["type": "array", "items": items]
        let url: [String: Any] = ["type": "string", "format": "uri"]
        let nullableURL: [String: Any] = ["type": ["string", "null"], "format": "uri"]
        let integer: [String: Any] = ["type": "integer", "minimum": 0]
        switch style {
        case .link, .page404:
            return array
        case .nextURL:
            return object(["next": nullableURL, "previous": nullableURL, "results": array], required: ["next", "previous", "results"])
        case .linksNext:
            let links = object(["next": nullableURL, "prev": nullableURL, "self": url], required: ["next", "prev", "self"])
            return object(["data": array, "links": links], required: ["data", "links"])
        case .cursorNull:
            return object(["data": array, "next_cursor": ["type": ["string", "null"], "minLength": 1]], required: ["data", "next_cursor"])
        case .cursorAbsent:
            return object(["data": array, "next_cursor": ["type": "string", "minLength": 1]], required: ["data"])
        case .cursorEmpty, .cursorZero:
            return object(["data": array, "next_cursor": ["type": "string"]], required: ["data", "next_cursor"])
        case .hasMore:
            return object(["data": array, "has_more": ["type": "boolean"], "object": ["const": "list"], "url": ["type": "string"]],
                          required: ["data", "has_more", "object", "url"])
        case .offsetTotal:
            return object(["items": array, "total": integer, "offset": integer, "limit": integer],
                          required: ["items", "total", "offset", "limit"])
        case .offset:
            return object(["items": array, "offset": integer, "limit": integer], required: ["items", "offset", "limit"])
        }
    }
}

