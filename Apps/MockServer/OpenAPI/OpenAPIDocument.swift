import Foundation
import HTTPTypes

// MARK: - OpenAPIDocument

/// `GET /openapi.json`: an OpenAPI 3.1 description of every route, generated from ``Endpoint``
/// so no route can be left out (a test also checks each documented operation on a live server).
enum OpenAPIDocument {
    /// The document as a cacheable representation.
    static func representation() -> Representation {
        Representation(encoding: JSONObject(document), lastModified: SeedData.epoch)
    }

    /// The whole document.
    static var document: [String: Any] {
        var paths: [String: Any] = [:]
        for endpoint in Endpoint.allCases {
            var item: [String: Any] = [:]
            for method in endpoint.methods where method != .head {
                item[method.rawValue.lowercased()] = operation(endpoint, method)
            }
            if endpoint == .post {
                item["parameters"] = [parameter("id", in: "path", "Post id", required: true)]
            }
            paths[endpoint.rawValue] = item
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "fresh-mock",
                "version": "1.0.0",
                "description": "Mock API with seeded data, real validators and Cache-Control, cursor / Link / offset "
                    + "pagination, writes with If-Match, fault injection and statistics.",
            ],
            "paths": paths,
            "components": ["schemas": schemas],
        ]
    }

    // MARK: Operations

    private static func operation(_ endpoint: Endpoint, _ method: HTTPRequest.Method) -> [String: Any] {
        let (summary, parameters, body, success, errors) = describe(endpoint, method)
        var responses: [String: Any] = success
        for code in errors { responses[code] = errorResponse }
        var operation: [String: Any] = ["summary": summary, "responses": responses]
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if let body {
            operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(body)]]]
        }
        if endpoint.isAdmin { operation["tags"] = ["admin"] }
        return operation
    }

    private typealias Description = (
        summary: String, parameters: [[String: Any]], body: String?, success: [String: Any], errors: [String]
    )

    private static func describe(_ endpoint: Endpoint, _ method: HTTPRequest.Method) -> Description {
        let readErrors = ["304", "400", "429", "503"]
        let writeErrors = ["400", "404", "412", "413", "428"]
        switch (endpoint, method) {
        case (.posts, .post):
            return ("Create a post; 201 with Location and ETag", [], "NewPost", ["201": json("Post")], ["400", "413"])
        case (.posts, _):
            return ("Cursor page of posts; next_cursor \"0\" on the last page",
                    [parameter("limit", "Page size 1…100 (default 20)"), parameter("cursor", "Opaque cursor from next_cursor")],
                    nil, ["200": json("PostPage")], readErrors)
        case (.post, .get):
            return ("One post", [], nil, ["200": json("Post")], ["304", "404"])
        case (.post, .put):
            return ("Replace a post (honours If-Match)", [], "NewPost", ["200": json("Post")], writeErrors)
        case (.post, .patch):
            return ("Change some fields of a post (honours If-Match)", [], "PostPatch", ["200": json("Post")], writeErrors)
        case (.post, _):
            return ("Delete a post (honours If-Match)", [], nil, ["204": ["description": "Deleted"]], ["404", "412", "428"])
        case (.articles, _):
            return ("Page of articles with Link (first, prev, next, last) and X-Total-Count",
                    [parameter("page", "Page number from 1"), parameter("per_page", "Page size 1…100 (default 20)")],
                    nil, ["200": json("ArticleList")], readErrors)
        case (.feed, _):
            return ("Offset page of the feed", [parameter("offset", "Index of the first item"), parameter("limit", "Page size 1…100")],
                    nil, ["200": json("FeedPage")], readErrors)
        case (.exercises, _):
            return ("The whole exercise database (about 1 MB)", [], nil, ["200": json("ExerciseDatabase")], readErrors)
        case (.openAPI, _):
            return ("This document", [], nil, ["200": ["description": "OpenAPI 3.1 document"]], ["304"])
        case (.stats, _):
            return ("Request statistics", [], nil, ["200": json("Statistics")], [])
        case (.journal, _):
            return ("The last requests", [parameter("limit", "How many entries (default 50)")], nil,
                    ["200": ["description": "Journal entries, oldest first"]], ["400"])
        case (.faults, .put):
            return ("Replace the fault rules", [], "FaultSettings", ["200": json("FaultSettings")], ["400"])
        case (.faults, .delete):
            return ("Remove every fault rule", [], nil, ["200": json("FaultSettings")], [])
        case (.faults, _):
            return ("The active fault rules", [], nil, ["200": json("FaultSettings")], [])
        case (.reset, _):
            return ("Back to the seeded state; clears faults set at run time, stats and journal", [], nil,
                    ["200": ["description": "Reset"]], [])
        default:
            return ("Simulate n edits, new posts and deletions", [parameter("n", "Number of changes 1…1000 (default 1)")],
                    nil, ["200": ["description": "Ids edited, created and deleted"]], ["400"])
        }
    }

    // MARK: Building blocks

    private static func parameter(_ name: String, in location: String = "query", _ description: String, required: Bool = false) -> [String: Any] {
        ["name": name, "in": location, "required": required, "description": description,
         "schema": ["type": name == "cursor" ? "string" : "integer"]]
    }

    private static func ref(_ schema: String) -> [String: Any] {
        ["$ref": "#/components/schemas/\(schema)"]
    }

    private static func json(_ schema: String) -> [String: Any] {
        ["description": "OK", "content": ["application/json": ["schema": ref(schema)]]]
    }

    private static var errorResponse: [String: Any] {
        ["description": "Error (a 304 has no body)", "content": ["application/json": ["schema": ref("Error")]]]
    }

    private static func object(_ properties: [String: Any], required: [String]) -> [String: Any] {
        ["type": "object", "properties": properties, "required": required]
    }

    private static var string: [String: Any] { ["type": "string"] }
    private static var integer: [String: Any] { ["type": "integer"] }
    private static var dateTime: [String: Any] { ["type": "string", "format": "date-time"] }

    private static var schemas: [String: Any] {
        [
            "Post": object(["id": integer, "title": string, "body": string, "author": string, "updated_at": dateTime],
                           required: ["id", "title", "body", "author", "updated_at"]),
            "NewPost": object(["title": string, "body": string, "author": string], required: ["title", "body", "author"]),
            "PostPatch": object(["title": string, "body": string, "author": string], required: []),
            "PostPage": object(["data": ["type": "array", "items": ref("Post")], "next_cursor": string],
                               required: ["data", "next_cursor"]),
            "Article": object(["id": integer, "title": string, "summary": string, "published_at": dateTime],
                              required: ["id", "title", "summary", "published_at"]),
            "ArticleList": ["type": "array", "items": ref("Article")],
            "FeedItem": object(["id": integer, "kind": string, "text": string], required: ["id", "kind", "text"]),
            "FeedPage": object(["items": ["type": "array", "items": ref("FeedItem")], "total": integer,
                                "offset": integer, "limit": integer], required: ["items", "total", "offset", "limit"]),
            "Exercise": object(["id": integer, "name": string, "muscle": string, "equipment": string, "instructions": string],
                               required: ["id", "name", "muscle", "equipment", "instructions"]),
            "ExerciseDatabase": object(["version": integer, "exercises": ["type": "array", "items": ref("Exercise")]],
                                       required: ["version", "exercises"]),
            "Error": object(["error": object(["code": string, "message": string], required: ["code", "message"])],
                            required: ["error"]),
            "Statistics": ["type": "object"],
            "FaultSettings": object(["seed": integer, "rules": ["type": "array", "items": ["type": "object"]]], required: ["rules"]),
        ]
    }
}

// MARK: - JSONObject

/// A `JSONSerialization` value made `Encodable` for ``Representation``: encodes as the same
/// sorted-key JSON the contract encoder produces.
private struct JSONObject: Encodable {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case let dictionary as [String: Any]:
            var container = encoder.container(keyedBy: Key.self)
            for (key, element) in dictionary {
                try container.encode(JSONObject(element), forKey: Key(stringValue: key))
            }
        case let array as [Any]:
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(JSONObject(element)) }
        case let string as String:
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case let bool as Bool:
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case let integer as Int:
            var container = encoder.singleValueContainer()
            try container.encode(integer)
        default:
            throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "not JSON"))
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
