import Foundation
import HTTPTypes
import MirrorStore
import NamedSources
import SyncEngine
import SyncOrchestration
import Synchronization
import Testing

@Suite("The command line over a source")
struct SyncOverridesTests {
    var source: Source {
        var source = Source(name: "github", url: "https://api.example.test/repos", headers: [("Accept", HeaderTemplate("application/json"))], limit: 50)
        source.cacert = "/etc/team-ca.pem"
        return source
    }

    @Test func flagsGoOverWhatASourceSaysAndKeepTheRest() throws {
        var overrides = SyncOverrides()
        overrides.limit = 10
        overrides.headerFields = { [.authorization: "Bearer t"] }
        overrides.userAgent = "probe/1"
        let options = try overrides.options(for: .source(source))
        #expect(options.name == "github" && options.limit == 10)
        #expect(options.headerFields[HTTPField.Name.accept] == "application/json" && options.headerFields[HTTPField.Name.authorization] == "Bearer t")
        #expect(options.headerFields[HTTPField.Name.userAgent] == "probe/1")
        #expect(options.trust.caFile == "/etc/team-ca.pem" && options.trust.verifies)
        #expect(options.rememberedHeaders == nil)
    }

    @Test func aURLKeepsItsHeadersButNoSecretAndInsecureIsSaid() throws {
        let said = Mutex(0)
        var overrides = SyncOverrides()
        overrides.name = "feed"
        overrides.insecure = true
        overrides.unverified = { said.withLock { $0 += 1 } }
        overrides.headerFields = { [.accept: "application/json", .authorization: "Bearer t"] }
        let options = try overrides.options(for: .url(URL(string: "https://api.example.test/feed")!))
        #expect(options.name == "feed" && !options.trust.verifies)
        #expect(options.rememberedHeaders == [.accept: "application/json"])
        #expect(said.withLock { $0 } == 1)
    }

    @Test func aNameDoesNotApplyToASource() {
        var overrides = SyncOverrides()
        overrides.name = "other"
        #expect(throws: (any Error).self) { try overrides.options(for: .source(source)) }
    }

    /// A `$(command)` in `-H` runs again for each sync (a watch's token that expires is fetched anew).
    @Test func theFieldsAreExpandedForEachSync() throws {
        let expansions = Mutex(0)
        var overrides = SyncOverrides()
        overrides.headerFields = {
            expansions.withLock { count in
                count += 1
                return [.authorization: "Bearer \(count)"]
            }
        }
        let first = try overrides.options(for: .source(source))
        let second = try overrides.options(for: .source(source))
        #expect(first.headerFields[HTTPField.Name.authorization] == "Bearer 1")
        #expect(second.headerFields[HTTPField.Name.authorization] == "Bearer 2")
    }
}
