import HTTPTypes
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

    @Test func hugeHeadersGetA431JSONBodyAndTheServerKeepsServing() async throws {
        try await withMockServer { server, _ in
            let huge = "GET /posts HTTP/1.1\r\nHost: x\r\nX-Huge: \(String(repeating: "x", count: 100_000))\r\n\r\n"
            let answer = try await RawHTTPExchange.send(Array(huge.utf8), port: server.port)
            #expect(answer.hasPrefix("HTTP/1.1 431 "))
            #expect(answer.contains(#""code":"headers_too_large""#))
            let healthy = try await withClient(of: server) { fresh in try await fresh.get("/posts").status }
            #expect(healthy == .ok)
        }
    }

    @Test(arguments: ["GARBAGE \u{1}\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /posts HTTP/1.1\r\nContent-Length: abc\r\n\r\n"])
    func bytesThatAreNotHTTPGetA400JSONBodyAndTheServerKeepsServing(request: String) async throws {
        try await withMockServer { server, _ in
            let answer = try await RawHTTPExchange.send(Array(request.utf8), port: server.port)
            #expect(answer.hasPrefix("HTTP/1.1 400 "))
            #expect(answer.contains("Connection: close"))
            #expect(answer.contains(#""code":"malformed_request""#))
            let healthy = try await withClient(of: server) { fresh in try await fresh.get("/posts").status }
            #expect(healthy == .ok)
        }
    }

    // MARK: RFC 9112 on a raw socket

    @Test(arguments: ["GET /posts?limit=1 HTTP/1.1\r\n\r\n", "GET /posts?limit=1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"])
    func anHTTP11RequestWithoutExactlyOneHostGetsA400(request: String) async throws {
        try await withMockServer { server, _ in
            let (answer, closed) = try await RawHTTPExchange.exchange(Array(request.utf8), port: server.port)
            #expect(answer.hasPrefix("HTTP/1.1 400 "))
            #expect(answer.contains(#""code":"malformed_request""#) && answer.contains("Host field"))
            #expect(closed)
        }
    }

    @Test func anHTTP10RequestIsAnsweredAndTheConnectionClosed() async throws {
        try await withMockServer { server, _ in
            // No Host needed in HTTP/1.0; no keep-alive asked for, so the server closes.
            let (answer, closed) = try await RawHTTPExchange.exchange(Array("GET /posts?limit=1 HTTP/1.0\r\n\r\n".utf8), port: server.port)
            #expect(answer.contains(" 200 ") && answer.lowercased().contains("connection: close"))
            #expect(closed, "a client reading to the end of the stream is not left waiting")
        }
    }

    @Test func keepAliveIsKeptWhenAskedFor() async throws {
        try await withMockServer { server, _ in
            // Two requests on one connection; the second asks to close: both are answered.
            let requests = "GET /posts?limit=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                + "GET /posts?limit=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let (answer, closed) = try await RawHTTPExchange.exchange(Array(requests.utf8), port: server.port)
            #expect(answer.components(separatedBy: "HTTP/1.1 200 ").count == 3)
            #expect(closed)
        }
    }
}
