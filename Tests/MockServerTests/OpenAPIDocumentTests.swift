import Foundation
import HTTPTypes
import Testing

@testable import MockServer

@Suite("/openapi.json")
struct OpenAPIDocumentTests {
    @Test func isOpenAPI31AndDocumentsEveryRoute() async throws {
        try await withMockServer { _, client in
            let document = try Self.document(try await client.get("/openapi.json"))
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            let routes = RouteTable(seeded: true, collectionNames: [])
            #expect(Set(paths.keys) == Set(routes.routes.map(\.template)))
            #expect(paths.keys.contains("/styles/has-more/users") && paths.keys.contains("/users/{id}"))
        }
    }

    @Test func everyDocumentedOperationExistsOnTheRunningServer() async throws {
        try await withMockServer { _, client in
            let document = try Self.document(try await client.get("/openapi.json"))
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let users = try await client.get("/styles/offset/users?limit=1").text
            let userID = try #require(users.firstMatch(of: /"id":"(usr_[0-9a-z]+)"/)?.1)
            let bodies = [
                "NewPost": #"{"title":"t","body":"b","author":"a"}"#, "PostPatch": #"{"title":"t"}"#,
                "FaultSettings": #"{"rules":[]}"#, "object": #"{"name":"n"}"#,
            ]
            let operations = paths.flatMap { template, item in
                item.filter { $0.key != "parameters" }.map { (template: template, method: $0.key, operation: $0.value) }
            }
            // Deletions last, so every other operation on an item finds it.
            let ordered = operations.sorted { first, second in
                (first.method == "delete" ? 1 : 0, first.template, first.method)
                    < (second.method == "delete" ? 1 : 0, second.template, second.method)
            }
            for (template, method, operation) in ordered {
                let path = template.replacingOccurrences(of: "{id}", with: template.hasPrefix("/users") ? String(userID) : "1")
                let httpMethod = try #require(HTTPRequest.Method(method.uppercased()))
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                let schemaName = template == "/_admin/faults" ? "FaultSettings"
                    : (schema?["$ref"] as? String).map { String($0.split(separator: "/").last ?? "") } ?? (schema?["type"] as? String)
                let response: MockClient.Response
                if let schemaName {
                    let body = try #require(bodies[schemaName], "no sample body for \(schemaName)")
                    response = try await client.send(httpMethod, path, json: body)
                } else {
                    response = try await client.send(httpMethod, path)
                }
                #expect(response.status.kind == .successful, "\(method.uppercased()) \(path) → \(response.status)")
                let documented = ((operation as? [String: Any])?["responses"] as? [String: Any])?.keys.map { $0 } ?? []
                #expect(documented.contains(String(response.status.code)), "\(method.uppercased()) \(path): \(response.status.code) undocumented")
            }
            let routes = RouteTable(seeded: true, collectionNames: [])
            let documented = routes.routes.map { $0.methods.filter { $0 != .head }.count }.reduce(0, +)
            #expect(ordered.count == documented)
        }
    }

    static func document(_ response: MockClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
    }
}
