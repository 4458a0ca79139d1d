import Foundation
import HTTPTypes
import HummingbirdTesting
import Models
import NIOCore
import Testing

@testable import MockServer

// MARK: - Harness

/// Runs `body` against a real server on a free loopback port, through a real HTTP client,
/// and stops the server afterwards whatever happens.
func withMockServer<Value: Sendable>(
    _ configuration: MockServerConfiguration = MockServerConfiguration(),
    _ body: @Sendable (RunningMockServer, TestClient) async throws -> Value
) async throws -> Value {
    let server = try await RunningMockServer.start(configuration)
    do {
        let value = try await withClient(of: server) { client in try await body(server, client) }
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` with a fresh keep-alive connection to `server`.
func withClient<Value: Sendable>(
    of server: RunningMockServer, _ body: @Sendable (TestClient) async throws -> Value
) async throws -> Value {
    let client = TestClient(host: "127.0.0.1", port: server.port)
    client.connect()
    do {
        let value = try await body(client)
        try await client.shutdown()
        return value
    } catch {
        try? await client.shutdown()
        throw error
    }
}

// MARK: - Requests

extension TestClient {
    /// A request with a JSON body.
    func send(_ method: HTTPRequest.Method, _ path: String, json: String, headers: HTTPFields = [:]) async throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(Request(path, method: method, headers: headers, body: ByteBuffer(string: json)))
    }

    /// A body-less request with any method.
    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:]) async throws -> Response {
        try await execute(Request(path, method: method, headers: headers))
    }

    /// Every post, following `next_cursor` until "0"; returns the posts and the pages' ETags.
    func allPosts(limit: Int) async throws -> (posts: [Post], etags: [String]) {
        var posts: [Post] = []
        var etags: [String] = []
        var cursor: String?
        repeat {
            let response = try await get("/posts?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
            #expect(response.status == .ok)
            let page = try response.decoded(CursorPage<Post>.self)
            posts += page.data
            etags.append(response.headers[.eTag] ?? "")
            cursor = page.isLastPage ? nil : page.nextCursor
        } while cursor != nil
        return (posts, etags)
    }
}

extension TestClient.Response {
    /// The body as UTF-8 text ("" when there is none).
    var text: String {
        body.map { String(buffer: $0) } ?? ""
    }

    /// The body decoded with the contract decoder.
    func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder.api().decode(Value.self, from: Data(text.utf8))
    }

    /// The error code of a JSON error body.
    var errorCode: String? {
        try? decoded(APIErrorBody.self).error.code
    }

    /// The error message of a JSON error body.
    var errorMessage: String? {
        try? decoded(APIErrorBody.self).error.message
    }
}
