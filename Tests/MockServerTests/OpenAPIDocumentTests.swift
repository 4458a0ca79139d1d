import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import MockServer

@Suite("/openapi.json")
struct OpenAPIDocumentTests {
    @Test func isOpenAPI31AndDocumentsEveryRoute() async throws {
        try await withMockServer { _, client in
            let document = try Self.document(try await client.get("/openapi.json"))
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            #expect(Set(paths.keys) == Set(Endpoint.allCases.map(\.rawValue)))
        }
    }

    @Test func everyDocumentedOperationExistsOnTheRunningServer() async throws {
        try await withMockServer { _, client in
            let document = try Self.document(try await client.get("/openapi.json"))
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let bodies = [
                "NewPost": #"{"title":"t","body":"b","author":"a"}"#, "PostPatch": #"{"title":"t"}"#,
                "FaultSettings": #"{"rules":[]}"#,
            ]
            let operations = paths.flatMap { template, item in
                item.filter { $0.key != "parameters" }.map { (template: template, method: $0.key, operation: $0.value) }
            }
            // Deletions last, so every other operation on /posts/1 finds the post.
            let ordered = operations.sorted { first, second in
                (first.method == "delete" ? 1 : 0, first.template, first.method)
                    < (second.method == "delete" ? 1 : 0, second.template, second.method)
            }
            for (template, method, operation) in ordered {
                let path = template.replacingOccurrences(of: "{id}", with: "1")
                let httpMethod = try #require(HTTPRequest.Method(method.uppercased()))
                let content = ((operation as? [String: Any])?["requestBody"] as? [String: Any])?["content"] as? [String: Any]
                let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: String]
                let schemaName = schema?["$ref"].map { String($0.split(separator: "/").last ?? "") }
                let response: TestClient.Response
                if let schemaName {
                    let body = try #require(bodies[schemaName], "no sample body for \(schemaName)")
                    response = try await client.send(httpMethod, path, json: body)
                } else {
                    response = try await client.send(httpMethod, path)
                }
                #expect(response.status.kind == .successful, "\(method.uppercased()) \(path) → \(response.status)")
            }
            let documented = Endpoint.allCases.map { $0.methods.filter { $0 != .head }.count }.reduce(0, +)
            #expect(ordered.count == documented)
        }
    }

    private static func document(_ response: TestClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
    }
}
