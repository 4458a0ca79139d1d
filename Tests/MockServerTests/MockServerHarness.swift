import Foundation
import HTTPTypes
import Models
import NIOCore
import Testing

@testable import MockServer

// MARK: - Harness

/// Runs `body` against a real server on a free loopback port, through a real HTTP client,
/// and stops the server afterwards whatever happens.
func withMockServer<Value: Sendable>(
    _ configuration: MockServerConfiguration = MockServerConfiguration(),
    _ body: @Sendable (RunningMockServer, MockClient) async throws -> Value
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
    of server: RunningMockServer, _ body: @Sendable (MockClient) async throws -> Value
) async throws -> Value {
    try await withClient(port: server.port, body)
}

/// Runs `body` with a fresh keep-alive connection to a server on loopback port `port`.
func withClient<Value: Sendable>(port: Int, _ body: @Sendable (MockClient) async throws -> Value) async throws -> Value {
    let client = try await MockClient(port: port)
    do {
        let value = try await body(client)
        await client.shutdown()
        return value
    } catch {
        await client.shutdown()
        throw error
    }
}

// MARK: - Requests

/// A client on one keep-alive connection (``LoopbackClient``), sending the `Host` field that
/// HTTP/1.1 requires (RFC 9112 §3.2; the server refuses a request without it) unless a request
/// names another authority.
struct MockClient: Sendable {
    typealias Request = LoopbackClient.Request
    typealias Response = LoopbackClient.Response

    private let client: LoopbackClient
    private let authority: String

    init(port: Int) async throws {
        client = try await LoopbackClient(port: port)
        authority = "127.0.0.1:\(port)"
    }

    func execute(_ request: Request) async throws -> Response {
        var request = request
        request.head.authority = request.head.authority ?? authority
        return try await client.execute(request)
    }

    func get(_ path: String, headers: HTTPFields = [:]) async throws -> Response {
        try await send(.get, path, headers: headers)
    }

    func head(_ path: String, headers: HTTPFields = [:]) async throws -> Response {
        try await send(.head, path, headers: headers)
    }

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

    func shutdown() async {
        await client.shutdown()
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

extension LoopbackClient.Response {
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
