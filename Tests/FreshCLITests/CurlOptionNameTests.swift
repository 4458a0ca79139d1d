import ArgumentParser
import Foundation
import HTTPCache
import HTTPTypes
import NamedSources
import Testing
@testable import FreshCLI

@Suite("curl's option names, on get and sync")
struct CurlOptionNameTests {
    @Test func getTakesTheLongFormsUsersType() throws {
        let command = try GetCommand.parse([
            "--request", "PUT", "--header", "X-A: 1", "--user-agent", "tool/1", "--connect-timeout", "2.5", "--proxy", "http://proxy.test:3128",
            "--data", "{}", "--compressed", "--location", "--cacert", "/etc/hostname", "--insecure", "http://o.test/a",
        ])
        let request = try command.makeRequest()
        #expect(request.method == .put && request.headerFields[.userAgent] == "tool/1" && request.headerFields[HTTPField.Name("X-A")!] == "1")
        #expect(command.network.connectTimeout == 2.5 && command.network.proxy == "http://proxy.test:3128" && command.location)
        #expect(request.trust == TLSTrust(caFile: "/etc/hostname", caDirectory: request.trust.caDirectory, verifies: false))
        let short = try GetCommand.parse(["-X", "DELETE", "-A", "x", "-x", "proxy.test:3128", "-k", "http://o.test/a"])
        #expect(short.method == "DELETE" && short.network.userAgent == "x" && short.network.insecure)
    }

    @Test func syncTakesThemTooWithParallelSinceAndFull() throws {
        let command = try SyncCommand.parse(["--header", "Accept: application/json", "-A", "tool/1", "--parallel", "1", "--since", "since=updated_at",
                                             "--full", "--capath", "/etc", "--compressed", "http://o.test/items"])
        #expect(command.headers == ["Accept: application/json"] && command.parallel == 1 && command.full)
        #expect(command.since?.description == "since=updated_at" && command.network.caDirectory == "/etc" && command.network.compressed)
        #expect(throws: (any Error).self) { try SyncCommand.parse(["--parallel", "0", "http://o.test/items"]) }
        #expect(throws: (any Error).self) { try SyncCommand.parse(["--since", "updated_at", "http://o.test/items"]) }
        #expect(throws: (any Error).self) { try SyncCommand.parse(["--cacert", "/no/such/file.pem", "http://o.test/items"]) }
    }

    @Test func theEnvironmentTrustsAsCurlsDoes() {
        let environment = ["CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem", "SSL_CERT_DIR": "/certs"]
        #expect(TLSTrust.resolved(caFile: nil, caDirectory: nil, verifies: true, environment: environment) == TLSTrust(caFile: "/a.pem", caDirectory: "/certs"))
        #expect(TLSTrust.resolved(caFile: nil, caDirectory: nil, verifies: true, environment: ["SSL_CERT_FILE": "/b.pem"]).caFile == "/b.pem")
        #expect(TLSTrust.resolved(caFile: "/mine.pem", caDirectory: nil, verifies: true, environment: environment).caFile == "/mine.pem")
    }
}
