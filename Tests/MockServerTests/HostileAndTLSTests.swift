import Foundation
import HTTPFields
import HTTPTypes
import Models
import Testing
@testable import MockServer

@Suite("--hostile-text and --tls")
struct HostileAndTLSTests {
    @Test func titlesErrorsAndAFieldCarryControlsAndBidiOverrides() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 6, hostileText: true)) { server, _ in
            // The field holds an ESC that HTTP clients refuse, so the answer is read as raw bytes.
            let answer = try await RawHTTPExchange.send(Array("GET /posts?limit=6 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                                                        port: server.port)
            #expect(answer.contains("X-Mock-Note: \(HostileText.headerValue)\r\n"))
            let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
            let titles = try JSONDecoder.api().decode(CursorPage<Post>.self, from: Data(body.utf8)).data.map(\.title)
            #expect(titles.filter(HostileText.samples.contains).count == 2)
            let missing = try await RawHTTPExchange.send(Array("GET /posts/999 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                                                         port: server.port)
            #expect(missing.hasPrefix("HTTP/1.1 404"))
            #expect(HostileText.samples.contains { missing.contains(Self.jsonEscaped($0)) })
        }
    }

    /// `text` as the contract encoder writes it in a JSON string.
    private static func jsonEscaped(_ text: String) -> String {
        let quoted = String(decoding: APIJSON.encode([text]), as: UTF8.self)
        return String(quoted.dropFirst(2).dropLast(2))
    }

    @Test func tlsServesHTTPSWithACertificateFileThatIsRemovedWithATemporaryDirectory() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(tlsDirectory: ""))
        let certificate = try #require(server.certificatePath)
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        #expect(try String(contentsOfFile: certificate, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: certificate))
    }
}
