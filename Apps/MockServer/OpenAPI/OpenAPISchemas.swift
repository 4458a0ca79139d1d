/// The component schemas of `/openapi.json` and the response building blocks.
enum OpenAPISchemas {
    // MARK: Building blocks

    static func ref(_ schema: String) -> [String: Any] {
        ["$ref": "#/components/schemas/\(schema)"]
    }

    /// A JSON response of the component `schema`.
    static func json(_ schema: String, _ description: String = "OK") -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": ref(schema)]]]
    }

    /// 304: validators, no body.
    static var notModified: [String: Any] {
        ["description": "Not Modified: If-None-Match or If-Modified-Since still matches; no body"]
    }

    /// An object schema; `closed`: no members but `properties`.
    static func object(_ properties: [String: Any], required: [String], closed: Bool = true) -> [String: Any] {
        var schema: [String: Any] = ["type": "object", "properties": properties, "required": required]
        if closed { schema["additionalProperties"] = false }
        return schema
    }

    private static var string: [String: Any] { ["type": "string"] }
    private static var integer: [String: Any] { ["type": "integer"] }
    private static var count: [String: Any] { ["type": "integer", "minimum": 0] }
    private static var dateTime: [String: Any] { ["type": "string", "format": "date-time"] }
    /// A text field of a post: some character other than space, tab, CR, LF (``JSONBody/textPattern``).
    private static var text: [String: Any] { ["type": "string", "pattern": JSONBody.textPattern] }
    private static func counts() -> [String: Any] { ["type": "object", "additionalProperties": count] }

    // MARK: Components

    /// Every component schema; `itemSchemas` are those of collections of any JSON object.
    static func components(itemSchemas: [String: Any]) -> [String: Any] {
        var schemas: [String: Any] = [
            "Post": object(["id": integer, "title": string, "body": string, "author": string, "updated_at": dateTime],
                           required: ["id", "title", "body", "author", "updated_at"]),
            "NewPost": object(["title": text, "body": text, "author": text], required: ["title", "body", "author"], closed: false),
            "PostPatch": [
                "type": "object", "properties": ["title": text, "body": text, "author": text],
                "anyOf": [["required": ["title"]], ["required": ["body"]], ["required": ["author"]]],
            ],
            "Article": object(["id": integer, "title": string, "summary": string, "published_at": dateTime],
                              required: ["id", "title", "summary", "published_at"]),
            "FeedItem": object(["id": integer, "kind": string, "text": string], required: ["id", "kind", "text"]),
            "Exercise": object(["id": integer, "name": string, "muscle": string, "equipment": string, "instructions": string],
                               required: ["id", "name", "muscle", "equipment", "instructions"]),
            "ExerciseDatabase": object(["version": integer, "exercises": ["type": "array", "items": ref("Exercise")]],
                                       required: ["version", "exercises"]),
            "Error": object(["error": object(["code": string, "message": string, "nearest": string,
                                              "differences": ["type": "array", "items": string]], required: ["code", "message"])],
                            required: ["error"]),
            "Statistics": object([
                "total_requests": count, "by_status": counts(), "conditional_requests": count, "not_modified": count,
                "body_bytes_sent": count, "bytes_saved_by_304": count, "in_flight": count, "max_in_flight": count,
                "by_route": ["type": "object", "additionalProperties": object(
                    ["requests": count, "by_status": counts()], required: ["requests", "by_status"])],
            ], required: ["total_requests", "by_status", "by_route", "conditional_requests", "not_modified",
                          "body_bytes_sent", "bytes_saved_by_304", "in_flight", "max_in_flight"]),
            "JournalEntry": object([
                "sequence": count, "method": string, "url": string, "status": integer, "body_bytes": count,
                "conditional_headers": ["type": "object", "additionalProperties": string], "fault": string, "miss": ["type": "boolean"],
            ], required: ["sequence", "method", "url", "status", "body_bytes", "conditional_headers"]),
            "FaultSettings": object(["seed": seedSchema, "rules": ["type": "array", "items": ["type": "object"]]],
                                    required: ["seed", "rules"]),
            "TickSummary": object(["edited": ["type": "array", "items": integer], "created": ["type": "array", "items": integer],
                                   "deleted": ["type": "array", "items": integer]], required: ["edited", "created", "deleted"]),
            "ResetStatus": object(["status": ["const": "reset"]], required: ["status"]),
            "StyleIndex": object([
                "default_style": ["enum": MockPaginationStyle.allCases.map(\.rawValue)],
                "styles": ["type": "array", "items": object([
                    "name": ["enum": MockPaginationStyle.allCases.map(\.rawValue)], "shape": string, "next_page": string,
                    "end_condition": string, "parameters": ["type": "array", "items": string],
                    "urls": ["type": "object", "additionalProperties": ["type": "string", "format": "uri"]],
                ], required: ["name", "shape", "next_page", "end_condition", "parameters", "urls"])],
            ], required: ["default_style", "styles"]),
        ]
        schemas.merge(itemSchemas) { first, _ in first }
        return schemas
    }

    /// `--seed` and the fault seed: an unsigned 64-bit integer.
    private static var seedSchema: [String: Any] {
        ["type": "integer", "minimum": 0, "maximum": UInt64.max]
    }

    /// The body of `PUT /_admin/faults`, exactly as the server validates it.
    static func faultSettings(routes: RouteTable) -> [String: Any] {
        let templates = routes.routes.filter { !$0.isAdmin }.map(\.template)
        let rule = object([
            "route": ["enum": templates],
            "latency_ms": ["type": "integer", "minimum": 0, "maximum": 60_000],
            "jitter_ms": ["type": "integer", "minimum": 0, "maximum": 60_000],
            "failure": ["enum": FaultRule.Failure.allCases.map(\.rawValue)],
            "status": ["type": "integer", "minimum": 400, "maximum": 599],
            "rate": ["type": "number", "minimum": 0, "maximum": 1],
            "first": ["type": "integer", "minimum": 1, "maximum": FaultRule.maximumFirst],
            "after": ["type": "integer", "minimum": 1, "maximum": FaultRule.maximumFirst],
            "retry_after": ["type": "integer", "minimum": 0, "maximum": FaultRule.maximumRetryAfter],
        ], required: [])
        return object(["seed": seedSchema, "rules": ["type": "array", "items": rule]], required: ["rules"])
    }
}
