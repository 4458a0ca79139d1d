import Composition
import Foundation
import HTTPCache
import Storage
import SyncEngine
import Testing

/// python's http.server on a free loopback port, serving one directory: an origin that is
/// not ours, with its own idea of Last-Modified and 304s.
final class PythonOrigin {
    private let peer: PythonPeer
    let baseURL: String
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "fresh-origin-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        peer = try PythonPeer(["-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory, "0"])
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        guard let range = peer.firstLine.range(of: #"port (\d+)"#, options: .regularExpression) else {
            peer.stop()
            throw URLError(.cannotConnectToHost)
        }
        baseURL = "http://127.0.0.1:\(peer.firstLine[range].dropFirst(5))"
    }

    /// Writes a file whose modification time is `age` seconds ago.
    func serve(_ name: String, contents: String, modifiedAgo age: TimeInterval) throws {
        let path = directory + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }

    deinit {
        peer.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite("The cache against an origin outside the project (python http.server)")
struct ForeignOriginTests {
    func services() -> (FreshServices, String) {
        let directory = NSTemporaryDirectory() + "fresh-foreign-" + UUID().uuidString
        return (FreshServices(location: StorageLocation(directory: directory)), directory)
    }

    @Test func heuristicFreshnessFromLastModifiedThenRevalidationWithIfModifiedSince() async throws {
        let origin = try PythonOrigin()
        try origin.serve("notes.txt", contents: "열 번째 줄 tenth line\n", modifiedAgo: 86_400)
        let (services, directory) = services()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = URL(string: "\(origin.baseURL)/notes.txt")!

        let first = try await services.client.send(TransportRequest(method: .get, url: url))
        #expect(first.decision.outcome == .downloaded)
        #expect(first.decision.freshnessLifetime?.source == .heuristic)
        #expect((first.decision.freshnessLifetime?.seconds ?? 0) >= 8_000)

        let second = try await services.client.send(TransportRequest(method: .get, url: url))
        #expect(second.decision.outcome == .freshHit)

        let forced = try await services.client.send(TransportRequest(method: .get, url: url), policy: .reloadRevalidatingCacheData)
        #expect(forced.status == .ok)
        #expect(forced.decision.outcome == .revalidated)
        #expect(forced.body == Data("열 번째 줄 tenth line\n".utf8))
    }

    @Test func changedFileReplacesTheStoredResponse() async throws {
        let origin = try PythonOrigin()
        try origin.serve("page.json", contents: #"{"v":1}"#, modifiedAgo: 3_600)
        let (services, directory) = services()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = URL(string: "\(origin.baseURL)/page.json")!
        _ = try await services.client.send(TransportRequest(method: .get, url: url))
        try origin.serve("page.json", contents: #"{"v":2}"#, modifiedAgo: 0)
        let reloaded = try await services.client.send(TransportRequest(method: .get, url: url), policy: .reloadRevalidatingCacheData)
        #expect(reloaded.decision.outcome == .replaced)
        #expect(reloaded.body == Data(#"{"v":2}"#.utf8))
    }

    @Test func missingFile404IsStoredHeuristicallyOnlyWithValidFreshness() async throws {
        let origin = try PythonOrigin()
        let (services, directory) = services()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try await services.client.send(TransportRequest(method: .get, url: URL(string: "\(origin.baseURL)/nope")!))
        #expect(missing.status == .notFound)
        // A 404 is heuristically cacheable, but without Last-Modified or max-age it has no
        // lifetime: stored, and stale at once.
        #expect(missing.decision.freshnessLifetime?.seconds == 0)
    }

    @Test func aSyncRevalidatesAPageFreshOnlyByHeuristic() async throws {
        let origin = try PythonOrigin()
        try origin.serve("exercises.json", contents: #"[{"id":1,"name":"squat"}]"#, modifiedAgo: 86_400)
        let fixture = try SyncFixture()
        let url = "\(origin.baseURL)/exercises.json"
        _ = try await fixture.sync(url)
        // The file changes within the day's heuristic lifetime (10% of a day): the cache alone
        // would call the page fresh and the sync would miss the edit.
        try origin.serve("exercises.json", contents: #"[{"id":1,"name":"front squat"}]"#, modifiedAgo: 60)
        let changed = try await fixture.sync(url)
        #expect(changed.changed == 1 && changed.fullResponses == 1 && changed.freshHits == 0)
        #expect(try fixture.items(changed.collection).map(\.json) == [#"{"id":1,"name":"front squat"}"#])
        let unchanged = try await fixture.sync(url)
        #expect(unchanged.notModified == 1 && unchanged.freshHits == 0 && unchanged.changed == 0)
    }
}
