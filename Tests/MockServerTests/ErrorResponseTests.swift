import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import MockServer

@Suite("Errors are JSON with the right status")
struct ErrorResponseTests {
    @Test func unknownRoutesGetA404JSONBody() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/no/such/route")
            #expect(response.status == .notFound)
            #expect(response.errorCode == "not_found")
        }
    }

    @Test(arguments: [("/posts", "GET, HEAD, POST"), ("/posts/1", "GET, HEAD, PUT, PATCH, DELETE"), ("/_admin/tick", "POST")])
    func wrongMethodsGetA405WithAllow(path: String, allow: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.options, path)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(response.errorCode == "method_not_allowed")
        }
    }

    @Test func bodiesOverTheLimitGetA413() async throws {
        try await withMockServer(MockServerConfiguration(maxBodyBytes: 1_000)) { _, client in
            let title = String(repeating: "가", count: 1_000)
            let response = try await client.send(.post, "/posts", json: #"{"title":"\#(title)","body":"b","author":"a"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "payload_too_large")
        }
    }

    @Test func hugeHeadersGetA4xxAndTheServerKeepsServing() async throws {
        try await withMockServer { server, client in
            let huge = try await client.get("/posts", headers: [HTTPField.Name("X-Huge")!: String(repeating: "x", count: 100_000)])
            #expect((400..<500).contains(huge.status.code))
            let healthy = try await withClient(of: server) { fresh in try await fresh.get("/posts").status }
            #expect(healthy == .ok)
        }
    }
}
