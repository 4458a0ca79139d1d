import CurlTransport
import Foundation
import HTTPCache
import HTTPTypes
@testable import MockServer
import Testing

@Suite("CurlTransport against fresh-mock over loopback")
struct CurlTransportTests {
    let transport = CurlTransport()

    func withServer(_ configuration: MockServerConfiguration = MockServerConfiguration(postCount: 30),
                    _ body: (String) async throws -> Void) async throws {
        let server = try await RunningMockServer.start(configuration)
        do {
            try await body(server.baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func receivesStatusHeadersAndTheWholeBody() async throws {
        try await withServer { base in
            let response = try await transport.send(TransportRequest(
                method: .get, url: URL(string: "\(base)/posts?limit=5")!, headerFields: [.acceptEncoding: "identity"]))
            #expect(response.status == .ok)
            #expect(response.headerFields[.eTag] != nil)
            #expect(response.headerFields[.cacheControl] == "max-age=60")
            #expect(response.headerFields[.contentLength] == String(response.body.count))
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect((json?["data"] as? [Any])?.count == 5)
        }
    }

    @Test func conditionalRequestGets304WithNoBody() async throws {
        try await withServer { base in
            let url = URL(string: "\(base)/posts?limit=5")!
            let first = try await transport.send(TransportRequest(method: .get, url: url))
            let etag = try #require(first.headerFields[.eTag])
            let second = try await transport.send(TransportRequest(method: .get, url: url, headerFields: [.ifNoneMatch: etag]))
            #expect(second.status == .notModified)
            #expect(second.body.isEmpty)
        }
    }

    @Test func sendsMethodAndBody() async throws {
        try await withServer { base in
            let body = Data(#"{"title":"안녕 hello","body":"본문","author":"curl"}"#.utf8)
            let response = try await transport.send(TransportRequest(
                method: .post, url: URL(string: "\(base)/posts")!, headerFields: [.contentType: "application/json"], body: body))
            #expect(response.status == .created)
            #expect(response.headerFields[.location] != nil)
        }
    }

    @Test func closedPortIsUnreachable() async throws {
        // Port 1, where nothing listens: a port a stopped server left is free for the next test's
        // server to take (one that stalls answered a run of the whole suite after 30 s).
        await #expect {
            try await transport.send(TransportRequest(method: .get, url: URL(string: "http://127.0.0.1:1/posts")!))
        } throws: { error in
            guard case TransportError.unreachable = error else { return false }
            return true
        }
    }

    @Test func bodyCutShortIsAnErrorNotAResponse() async throws {
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/posts", failure: .close)])
        try await withServer(configuration) { base in
            await #expect {
                try await transport.send(TransportRequest(method: .get, url: URL(string: "\(base)/posts")!))
            } throws: { error in
                guard case TransportError.truncated = error else { return false }
                return true
            }
        }
    }

    @Test func slowServerTimesOut() async throws {
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/posts", latencyMilliseconds: 3000)])
        try await withServer(configuration) { base in
            // The error says how long was really waited: at least the limit.
            await #expect {
                try await transport.send(TransportRequest(method: .get, url: URL(string: "\(base)/posts")!, timeout: .milliseconds(200)))
            } throws: { error in
                guard case TransportError.timedOut(let waited) = error else { return false }
                return waited >= .milliseconds(200)
            }
        }
    }

    @Test func cancellationStopsTheTransfer() async throws {
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/posts", latencyMilliseconds: 5000)])
        try await withServer(configuration) { base in
            let task = Task { try await transport.send(TransportRequest(method: .get, url: URL(string: "\(base)/posts")!)) }
            task.cancel()
            await #expect(throws: TransportError.cancelled) { try await task.value }
        }
    }

    /// Whether `send` failed with ``TransportError/bodyTooLarge`` at `limit`.
    func refusesAsTooLarge(_ request: TransportRequest) async -> Bool {
        do {
            _ = try await transport.send(request)
            return false
        } catch {
            return error as? TransportError == .bodyTooLarge(limit: request.maximumBodySize ?? -1)
        }
    }

    @Test func aBodyOverTheLimitStopsTheTransfer() async throws {
        try await withServer(MockServerConfiguration(postCount: 100)) { base in
            let url = URL(string: "\(base)/posts?limit=50")!
            // Its Content-Length says it is too large before any of it is read.
            #expect(await refusesAsTooLarge(TransportRequest(method: .get, url: url, headerFields: [.acceptEncoding: "identity"],
                                                             maximumBodySize: 4096)))
            // Compressed, the wire is under the limit but the decoded body is not.
            #expect(await refusesAsTooLarge(TransportRequest(method: .get, url: url, maximumBodySize: 12_000)))
            let whole = try await transport.send(TransportRequest(method: .get, url: url, maximumBodySize: 1 << 20))
            #expect(whole.wireByteCount < 12_000 && whole.body.count > 12_000)
        }
        // Chunked, with no length announced: stopped once the body passes the limit.
        let chunk = String(repeating: "x", count: 1000)
        let chunks = String(repeating: "3E8\r\n\(chunk)\r\n", count: 20)
        let server = try RawReplyServer(reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(chunks)0\r\n\r\n")
        defer { server.stop() }
        #expect(await refusesAsTooLarge(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/big")!, maximumBodySize: 4096)))
    }

    // libcurl 7.66 and later refuse an HTTP/0.9 reply (anything without a status line) with this
    // message; Debian's libcurl, which setup installs, is newer.
    @Test(arguments: ["no status line, only text\r\n", "SSH-2.0-OpenSSH_9.2\r\n"])
    func aReplyThatIsNotHTTPIsAnInvalidResponse(_ reply: String) async throws {
        let server = try RawReplyServer(reply: reply)
        defer { server.stop() }
        await #expect {
            try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts")!))
        } throws: { error in
            guard case TransportError.invalidResponse(let reason) = error else { return false }
            return reason.contains("HTTP/0.9")
        }
    }

    /// A field sent as a trailer after a chunked body is not a header field: a `Cache-Control`
    /// there would have decided how the response is cached (RFC 9110 §6.5.1).
    @Test func aTrailerIsNotMergedIntoTheHeaderFields() async throws {
        let server = try RawReplyServer(reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Head: 1\r\n\r\n"
            + "5\r\nhello\r\n0\r\nCache-Control: max-age=600\r\nX-Tail: 2\r\n\r\n")
        defer { server.stop() }
        let response = try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/t")!))
        #expect(response.body == Data("hello".utf8) && response.headerFields[HTTPField.Name("X-Head")!] == "1")
        #expect(response.headerFields[.cacheControl] == nil && response.headerFields[HTTPField.Name("X-Tail")!] == nil)
    }

    /// A server that takes the connection and closes it without a byte was reached: its answer
    /// is missing (retried as one cut short), not the server.
    @Test func anEmptyReplyIsAMissingAnswerNotAnUnreachableServer() async throws {
        let server = try RawReplyServer(reply: "")
        defer { server.stop() }
        await #expect(throws: TransportError.truncated("the server closed the connection without a reply")) {
            try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/x")!))
        }
    }

    /// A header past libcurl's limit (100 KB): libcurl 7.88 says "out of memory"; it is the
    /// reply's fault and asking again gets the same, so it is an invalid response (exit 5, no retry).
    @Test func aHeaderLargerThanLibcurlTakesIsAnInvalidResponse() async throws {
        let server = try RawReplyServer(reply: "HTTP/1.1 200 OK\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n"
            + "Content-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { server.stop() }
        await #expect {
            try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/big")!))
        } throws: { error in
            guard case TransportError.invalidResponse(let reason) = error else { return false }
            return reason == "a header larger than libcurl takes (100 KB)"
        }
    }

    @Test func headerValuesLoseTheirOptionalWhitespaceOnly() async throws {
        let server = try RawReplyServer(reply: "HTTP/1.1 200 Fine Thanks\r\nETag:\t \"a b\" \t\r\nX-Note:  caf\u{e9}  au lait \r\n"
            + "X-Empty:\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { server.stop() }
        let response = try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/x")!))
        #expect(response.headerFields[.eTag] == "\"a b\"")
        #expect(response.headerFields[HTTPField.Name("X-Note")!] == "caf\u{e9}  au lait")
        #expect(response.headerFields[HTTPField.Name("X-Empty")!] == "")
        #expect(response.status.reasonPhrase == "Fine Thanks")
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "http:///nohost", "file:///etc/passwd"])
    func nonHTTPURLsAreRejected(_ text: String) async throws {
        await #expect {
            try await transport.send(TransportRequest(method: .get, url: URL(string: text)!))
        } throws: { error in
            guard case TransportError.invalidURL = error else { return false }
            return true
        }
    }
}
