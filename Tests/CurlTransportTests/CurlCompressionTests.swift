import CurlTransport
import Foundation
import HTTPCache
import HTTPTypes
@testable import MockServer
import Testing

@Suite("CurlTransport: compression and the status line")
struct CurlCompressionTests {
    let transport = CurlTransport()

    @Test func asksForCompressionAndHandsBackTheDecodedRepresentation() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        do {
            try await compare(url: URL(string: "\(server.baseURL)/exercises")!)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func compare(url: URL) async throws {
        let decoded = try await transport.send(TransportRequest(method: .get, url: url))
        #expect(decoded.headerFields[.contentEncoding] == nil)
        #expect(decoded.headerFields[.contentLength] == nil)
        #expect(decoded.headerFields[.vary]?.lowercased().contains("accept-encoding") == true)
        #expect((try? JSONSerialization.jsonObject(with: decoded.body)) != nil)
        #expect(decoded.wireByteCount < decoded.body.count / 2)

        // The caller's own Accept-Encoding: the exact bytes, headers as sent.
        let exact = try await transport.send(TransportRequest(method: .get, url: url, headerFields: [.acceptEncoding: "gzip"]))
        #expect(exact.headerFields[.contentEncoding] == "gzip")
        #expect(exact.body.prefix(2) == Data([0x1F, 0x8B]))
        #expect(exact.headerFields[.contentLength] == String(exact.body.count))
        #expect(exact.wireByteCount == exact.body.count)
    }

    @Test func keepsTheStatusLinesVersionAndReasonPhrase() async throws {
        let server = try RawReplyServer(reply: "HTTP/1.0 299 Odd But Fine\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let response = try await transport.send(TransportRequest(method: .get, url: URL(string: server.baseURL)!))
        #expect(response.version == "HTTP/1.0")
        #expect(response.status.code == 299)
        #expect(response.status.reasonPhrase == "Odd But Fine")
    }
}
