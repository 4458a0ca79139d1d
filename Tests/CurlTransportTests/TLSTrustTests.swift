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
