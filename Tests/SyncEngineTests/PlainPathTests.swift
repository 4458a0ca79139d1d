import Foundation
import HTTPCache
import MirrorStore
@testable import MockServer
import SyncEngine
import Testing

/// The speed-ups (``SpeedUps``) change how fast a mirror is made, never what it holds: the
/// plain path (one request at a time, each page written at once, cache lookups through GRDB)
/// and the fast one give identical mirrors, first sync and re-sync, on every style fresh-mock
/// serves and under its faults.
@Suite("The plain path and the speed-ups make the same mirror")
struct PlainPathTests {
    /// What a mirror holds: its items, and its pages as a re-sync reads them.
    struct Mirror: Equatable, CustomStringConvertible {
        var items: [String]
        var pages: [String]
        var description: String { "\(items.count) items, \(pages.count) pages" }
    }

    /// The mirror in `fixture`, its server's address (`origin`) written as `ORIGIN`.
    static func mirror(_ fixture: SyncFixture, origin: String) throws -> Mirror {
        let collection = try #require(try fixture.store.collections().first)
        let items = try fixture.items(collection.name).map { "\($0.key) \($0.json)" }
        let pages = try fixture.store.pages(of: collection.id, in: 0..<Int.max).sorted { $0.key < $1.key }.map { _, page in
            "\(page.pageIndex) \(page.url) → \(page.nextURL ?? "end"): \(page.itemCount) items, \(page.validator ?? "-"), total \(page.statedTotal.map(String.init) ?? "-")"
        }
        let anywhere = { (text: String) in text.replacingOccurrences(of: origin, with: "ORIGIN") }
        return Mirror(items: items.map(anywhere), pages: pages.map(anywhere))
    }

    /// Syncs `url` twice (a first sync, then a re-sync) on each path; returns both paths' mirrors.
    static func bothPaths(_ url: () async throws -> (origin: String, path: String)) async throws -> (fast: [Mirror], plain: [Mirror]) {
        var mirrors: [[Mirror]] = []
        for speedUps in [SpeedUps.all, []] {
            let fixture = try SyncFixture(speedUps: speedUps)
            let (origin, path) = try await url()
            var seen: [Mirror] = []
            for _ in 0..<2 {
                let summary = try await fixture.sync(origin + path)
                #expect(summary.complete, "\(path)")
                seen.append(try mirror(fixture, origin: origin))
            }
            mirrors.append(seen)
        }
        return (mirrors[0], mirrors[1])
    }

    @Test func everyStyleMirrorsTheSame() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 45, userCount: 23))
        let response = try await SyncFixture().services.client.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/styles")!))
        let styles = (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["styles"] as? [[String: Any]] ?? []
        let urls = styles.flatMap { ($0["urls"] as? [String: String] ?? [:]).values }.sorted()
        #expect(urls.count >= 11)
        for url in urls {
            let (fast, plain) = try await Self.bothPaths { (server.baseURL, String(url.dropFirst(server.baseURL.count))) }
            #expect(fast == plain, "\(url): fast \(fast), plain \(plain)")
            #expect(fast[0].items.count == (url.contains("/posts") ? 45 : 23), "\(url)")
        }
        await server.stop()
    }

    /// json-server's pages (`_page`, `_limit`) link the next one in `Link` and state the total in
    /// `X-Total-Count`: the read-ahead, which reads the link before the items, keeps the total of
    /// every page too, so a total that falls during a pass is seen on either path.
    @Test func aLinkedListingKeepsItsStatedTotalOnEveryPage() async throws {
        let notes = (1...25).map { #"{"id": \#($0), "text": "note \#($0)"}"# }.joined(separator: ", ")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-notes-\(UUID().uuidString).json")
        try Data(#"{"notes": [\#(notes)]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try await RunningMockServer.start(MockServerConfiguration(dataFile: file.path))
        let (fast, plain) = try await Self.bothPaths { (server.baseURL, "/notes?_page=1&_limit=10") }
        await server.stop()
        #expect(fast == plain)
        #expect(fast[0].pages.count == 3 && fast[0].pages.allSatisfy { $0.hasSuffix("total 25") }, "\(fast[0].pages)")
    }

    @Test(arguments: [
        FaultRule(route: "/posts", failure: .status, status: 502, first: 2),
        FaultRule(route: "/posts", failure: .status, status: 429, first: 1, retryAfter: 1),
        FaultRule(route: "/posts", failure: .close, first: 2),
        FaultRule(route: "/posts", latencyMilliseconds: 20, jitterMilliseconds: 20),
    ])
    func aFaultyServerMirrorsTheSame(fault: FaultRule) async throws {
        var servers: [RunningMockServer] = []
        // A server each: the first N requests of each path meet the fault.
        let (fast, plain) = try await Self.bothPaths {
            let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 45, maxAge: 0, faults: [fault]))
            servers.append(server)
            return (server.baseURL, "/posts?limit=10")
        }
        for server in servers { await server.stop() }
        #expect(fast == plain)
        #expect(fast[0].items.count == 45 && fast[1].items.count == 45)
    }
}
