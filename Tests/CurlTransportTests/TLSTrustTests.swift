import CurlTransport
import Foundation
import HTTPCache
@testable import MockServer
import Testing

/// HTTPS to fresh-mock's self-signed certificate (`--tls`), as to a server of a private CA.
@Suite("TLS: a private CA, -k, and a certificate that cannot be trusted")
struct TLSTrustTests {
    private func request(_ base: String, trust: TLSTrust) -> TransportRequest {
        var request = TransportRequest(method: .get, url: URL(string: "\(base)/posts?limit=2")!)
        request.trust = trust
        return request
    }

    @Test func theCAFileTrustsTheServerAndWithoutItTheCertificateFailsAsNoOtherError() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(tlsDirectory: ""))
        let certificate = try #require(server.certificatePath)
        let transport = CurlTransport()
        #expect(try await transport.send(request(server.baseURL, trust: TLSTrust(caFile: certificate))).status == .ok)
        // The system's CAs do not know it: a matter of trust, not a network that failed.
        await #expect {
            try await transport.send(request(server.baseURL, trust: TLSTrust(caFile: "/etc/ssl/certs/ca-certificates.crt")))
        } throws: { error in
            guard case TransportError.certificate = error else { return false }
            return !(error as! TransportError).meansOriginUnreachable
        }
        #expect(try await transport.send(request(server.baseURL, trust: TLSTrust(verifies: false))).status == .ok)
        await server.stop()
    }

    /// A page larger than a TLS record (16 KB) arrives whole, compressed or not, and the pages
    /// follow one another on the connection libcurl keeps alive.
    @Test func largePagesArriveWholeOneAfterAnother() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(tlsDirectory: ""))
        let certificate = try #require(server.certificatePath)
        let transport = CurlTransport()
        // Without an Accept-Encoding of the caller's, the transport asks for compression and decodes it.
        for encoding in [nil, "identity", nil, "identity"] {
            var page = TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts?limit=100")!,
                                        headerFields: encoding.map { [.acceptEncoding: $0] } ?? [:])
            page.trust = TLSTrust(caFile: certificate)
            let response = try await transport.send(page)
            #expect(response.status == .ok)
            let items = (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["data"] as? [Any]
            #expect(items?.count == 100, "\(encoding ?? "compressed")")
            #expect(response.body.count > 40_000)
        }
        #expect(server.statistics.totalRequests == 4)
        await server.stop()
    }

    /// `--capath`: a directory of certificates named by their hash, as `openssl rehash` makes it.
    @Test func aDirectoryOfHashedCertificatesTrustsTheServerToo() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(tlsDirectory: ""))
        let directory = NSTemporaryDirectory() + "fresh-capath-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try #require(server.certificatePath), toPath: directory + "/fresh-mock.pem")
        let rehash = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["openssl", "rehash", directory])
        rehash.waitUntilExit()
        #expect(rehash.terminationStatus == 0)
        let response = try await CurlTransport().send(request(server.baseURL, trust: TLSTrust(caDirectory: directory)))
        #expect(response.status == .ok)
        await server.stop()
    }
}
