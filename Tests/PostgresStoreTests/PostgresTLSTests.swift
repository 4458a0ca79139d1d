import Foundation
@testable import PostgresStore
import StorageErrors
import StoreAddress
import StoreTestSupport
import Testing

/// A server reached over TCP with TLS (libpq's `sslmode`): encrypted when asked, its certificate
/// checked against the authority given (`sslrootcert`), and each refusal one line.
@Suite("PostgreSQL over TLS")
struct PostgresTLSTests {
    @Test func eachModeConnectsOrRefusesAsLibpqDoes() async throws {
        let (cluster, port, authority) = try ThrowawayPostgres.servingTLS()
        defer { cluster.stop() }
        let otherAuthority = cluster.directory + "/other-ca.crt"
        try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8).write(toFile: otherAuthority, atomically: false, encoding: .utf8)
        func address(_ host: String, _ settings: String) throws -> PostgresAddress {
            try PostgresAddress(parsing: "postgresql://fresh@\(host):\(port)/postgres?\(settings)", environment: [:])
        }

        for (host, settings) in [("127.0.0.1", "sslmode=require"), ("localhost", "sslmode=verify-full&sslrootcert=\(authority)"),
                                 ("127.0.0.1", "sslmode=verify-ca&sslrootcert=\(authority)"), ("127.0.0.1", "sslmode=prefer")] {
            let mirror = try await PostgresMirror.open(try address(host, settings))
            let encrypted = try await mirror.connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first?.decode(Bool.self)
            #expect(encrypted == true, "\(settings)")
            await mirror.close()
        }

        let refusals = [
            // The certificate names localhost, not the address.
            ("127.0.0.1", "sslmode=verify-full&sslrootcert=\(authority)", #"does not match host name "127.0.0.1""#),
            // Signed by an authority the client does not trust.
            ("localhost", "sslmode=verify-full&sslrootcert=\(otherAuthority)", "certificate verify failed"),
            // The server takes TLS connections only.
            ("127.0.0.1", "sslmode=disable", "no encryption"),
        ]
        for (host, settings, reason) in refusals {
            let target = try address(host, settings)
            await #expect {
                _ = try await PostgresMirror.open(target)
            } throws: { error in
                guard case StorageError.cannotOpen(let place, let said) = error else { return false }
                return place == target.description && said.contains(reason) && !said.contains("\n")
            }
        }
    }

    @Test func anAuthorityFileComesFromTheURIOrPGSSLROOTCERT() throws {
        let given = try PostgresAddress(parsing: "postgresql://kim@db/team?sslmode=verify-full&sslrootcert=/etc/team-ca.crt", environment: [:])
        #expect(given.tlsAuthorities == "/etc/team-ca.crt")
        let variable = try PostgresAddress(parsing: "postgresql://kim@db/team", environment: ["PGSSLROOTCERT": "/etc/ca.crt"])
        #expect(variable.tlsAuthorities == "/etc/ca.crt")
        let system = try PostgresAddress(parsing: "postgresql://kim@db/team?sslmode=verify-ca", environment: ["HOME": "/nonexistent"])
        #expect(system.tlsAuthorities == nil)
    }
}
