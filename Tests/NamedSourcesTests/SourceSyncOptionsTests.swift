import Foundation
import Testing
@testable import NamedSources

@Suite("A source as a sync")
struct SourceSyncOptionsTests {
    /// A URL hand-written in sources.toml is read as one on the command line is: a lone `%` is a
    /// literal percent sign and the escapes beside it stay, so both name the same collection.
    @Test func aSourceURLIsReadAsTheCommandLineReadsIt() throws {
        let options = try Source(name: "s", url: "https://h.test/a%zz?q=%41&r=%").syncOptions(environment: [:])
        #expect(options.url.absoluteString == "https://h.test/a%25zz?q=%41&r=%25")
        #expect(WrittenURL.http("ftp://h.test/x") == nil && WrittenURL.http("h.test/x") == nil)
    }

    @Test func aSourceBecomesItsSyncWithItsHeadersExpanded() throws {
        let source = Source(name: "repos", url: "https://api.example.com/repos", headers: [("Authorization", HeaderTemplate("Bearer ${T}"))],
                            paginate: "link", items: "data", key: "id", limit: 30)
        let options = try source.syncOptions(environment: ["T": "abc"])
        #expect(options.url.absoluteString == "https://api.example.com/repos")
        #expect(options.name == "repos")
        #expect(options.limit == 30)
        #expect(options.headerFields[.authorization] == "Bearer abc")
        #expect(options.overrides.paginate != nil && options.overrides.items?.description == "data" && options.overrides.key?.description == "id")
    }

    @Test func aSourceKeepsItsSinceParallelAndTrust() throws {
        var source = Source(name: "issues", url: "https://api.example.com/issues")
        source.since = "since=updated_at"
        source.parallel = 1
        source.cacert = "/etc/private-ca.pem"
        let options = try source.syncOptions(environment: ["SSL_CERT_DIR": "/certs"])
        #expect(options.since?.description == "since=updated_at" && options.parallel == 1)
        #expect(options.trust.caFile == "/etc/private-ca.pem" && options.trust.caDirectory == "/certs" && options.trust.verifies)
        source.insecure = true
        #expect(try source.syncOptions(environment: [:]).trust.verifies == false)
        source.since = "updated_at"
        #expect(throws: SourceError.self) { try source.syncOptions(environment: [:]) }
    }

    @Test func aSourceThatCannotBeUsedSaysWhy() {
        #expect(throws: SourceError.badSource("x", reason: "url 'ftp://h/a' is not an http or https URL")) {
            try Source(name: "x", url: "ftp://h/a").syncOptions()
        }
        #expect(throws: SourceError.self) { try Source(name: "x", url: "https://h/a", paginate: "sideways").syncOptions() }
        #expect(throws: SourceError.unsetVariable("NOPE", header: "Authorization", source: "x")) {
            try Source(name: "x", url: "https://h/a", headers: [("Authorization", HeaderTemplate("${NOPE}"))]).syncOptions(environment: [:])
        }
    }

    @Test(arguments: [("repos", true), ("api.v2", true), ("my_src-1", true), ("-x", false), (".x", false), ("a/b", false), ("a b", false), ("", false)])
    func namesAreWordsForCommandLines(name: String, valid: Bool) {
        #expect(Source.isValidName(name) == valid)
    }
}
