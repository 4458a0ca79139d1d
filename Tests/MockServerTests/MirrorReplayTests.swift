import Foundation
import HTTPTypes
import JSON
import MirrorStore
import Pagination
import Storage
import Testing

@testable import MockServer

/// `fresh-mock --mirror`: a real SQLite mirror, written through the store's own interface as a
/// sync writes it, served by a real server.
@Suite("--mirror: replaying a mirror")
struct MirrorReplayTests {
    static let origin = "http://origin.test:9"
    static let lastModified = "Mon, 01 Jan 2024 00:00:00 GMT"

    /// A mirror in a temporary directory holding `posts` (cursor style, two pages, the first with
    /// the origin's validators), `articles` (Link style) and `users` (stored without envelopes,
    /// as mirrors made before them were).
    static func withMirror<Value>(_ body: (SQLiteMirror, String) async throws -> Value) async throws -> Value {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-replay-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mirror = try SQLiteMirror(path: directory + "/data.sqlite")
        try await record(in: mirror, name: "posts", first: "/posts?limit=2", plan: .cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: nil),
                         items: JSONPath(["data"]), pages: [
                            (url: "/posts?limit=2", keys: [9, 3], envelope: PageEnvelope(
                                fields: [.init(name: "ETag", value: "\"origin-e0\""), .init(name: "Last-Modified", value: lastModified)],
                                before: #"{"data":"#, after: #","next_cursor":"c2"}"#)),
                            (url: "/posts?limit=2&cursor=c2", keys: [5], envelope: PageEnvelope(fields: [], before: #"{"data":"#, after: #","next_cursor":null}"#)),
                         ])
        try await record(in: mirror, name: "articles", first: "/articles?per_page=1", plan: .link, items: .root, pages: [
            (url: "/articles?per_page=1", keys: [1], envelope: PageEnvelope(
                fields: [.init(name: "Link", value: "<\(origin)/articles?page=2&per_page=1>; rel=\"next\"")], before: "", after: "")),
            (url: "/articles?page=2&per_page=1", keys: [2], envelope: PageEnvelope(fields: [], before: "", after: "")),
        ])
        try await record(in: mirror, name: "users", first: "/users?limit=1", plan: .hasMore(flag: JSONPath(["has_more"]), parameter: "starting_after"),
                         items: JSONPath(["data"]), pages: [
                            (url: "/users?limit=1", keys: [7], envelope: nil),
                            (url: "/users?limit=1&starting_after=7", keys: [8], envelope: nil),
                         ])
        return try await body(mirror, directory)
    }

    /// Writes a collection's pages, each pointing at the next, in one complete pass.
    static func record(
        in mirror: SQLiteMirror, name: String, first: String, plan style: PaginationStyle, items: JSONPath,
        pages: [(url: String, keys: [Int], envelope: PageEnvelope?)]
    ) async throws {
        let collection = try await mirror.createCollection(preferredName: name, url: origin + first, now: Date())
        try await mirror.setPlan(PaginationPlan(style: style, items: items, key: JSONPath(["id"]), sizeParameter: nil), url: origin + first, of: collection.id)
        let pass = try await mirror.startPass(of: collection.id, restart: true, now: Date()).pass
        let contents = pages.enumerated().map { index, page in
            PageContent(index: index, url: origin + page.url, nextURL: index + 1 < pages.count ? origin + pages[index + 1].url : nil,
                        validator: nil, items: page.keys.map { (key: ItemKey.integer($0), json: Data(Self.item($0).utf8)) }, envelope: page.envelope)
        }
        _ = try await mirror.writePages(contents, of: collection.id, pass: pass, now: Date())
        _ = try await mirror.finishPass(pass, of: collection.id, lastPage: pages.count - 1, removingUnlisted: true, recording: .full, now: Date())
    }

    static func item(_ key: Int) -> String { #"{"id":\#(key),"title":"item \#(key)"}"# }

    static func serving<Value: Sendable>(
        _ mirror: SQLiteMirror, configure: (inout MockServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (RunningMockServer, MockClient) async throws -> Value
    ) async throws -> Value {
        var configuration = MockServerConfiguration()
        configuration.mirror = MirrorSource(store: mirror)
        configure(&configuration)
        return try await withMockServer(configuration, body)
    }

    @Test func aRecordedPageIsTheOriginsWithItsValidatorsAndItsLinksPointingHere() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror) { server, client async throws in
                let first = try await client.get("/posts?limit=2")
                #expect(first.status == .ok)
                #expect(first.text == #"{"data":[\#(Self.item(9)),\#(Self.item(3))],"next_cursor":"c2"}"#)
                #expect(first.headers[.eTag] == "\"origin-e0\"" && first.headers[.lastModified] == Self.lastModified)
                #expect(first.headers[.cacheControl] == "max-age=60")
                #expect(try await client.get("/posts?limit=2", headers: [.ifNoneMatch: "\"origin-e0\""]).status == .notModified)
                #expect(try await client.get("/posts?limit=2", headers: [.ifModifiedSince: Self.lastModified]).status == .notModified)
                // The same parameters in another order name the same page.
                let second = try await client.get("/posts?cursor=c2&limit=2")
                #expect(second.text == #"{"data":[\#(Self.item(5))],"next_cursor":null}"#)
                let tag = try #require(second.headers[.eTag])
                #expect(try await client.get("/posts?limit=2&cursor=c2", headers: [.ifNoneMatch: tag]).status == .notModified)
                let articles = try await client.get("/articles?per_page=1")
                #expect(articles.headers[.link] == "<\(server.baseURL)/articles?page=2&per_page=1>; rel=\"next\"")
                #expect(articles.text == "[\(Self.item(1))]")
            }
        }
    }

    @Test func aPageWithoutTheOriginsValidatorKeepsItsTagAcrossRestarts() async throws {
        try await Self.withMirror { mirror, _ in
            let tags = try await [1, 2].asyncMap { _ in
                try await Self.serving(mirror) { _, client in try await client.get("/posts?limit=2&cursor=c2").headers[.eTag] }
            }
            #expect(tags[0] != nil && tags[0] == tags[1])
        }
    }

    @Test func pagesStoredWithoutAnEnvelopeAreMadeFromThePlan() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror) { _, client async throws in
                #expect(try await client.get("/users?limit=1").text == #"{"data":[\#(Self.item(7))],"has_more":true}"#)
                #expect(try await client.get("/users?limit=1&starting_after=7").text == #"{"data":[\#(Self.item(8))],"has_more":false}"#)
            }
        }
    }

    @Test func aMissNamesTheNearestRecordedURLAndIsListedAndLogged() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror) { _, client async throws in
                let miss = try await client.get("/posts?limit=5")
                #expect(miss.status == .notFound)
                let body = try JSONSerialization.jsonObject(with: Data(miss.text.utf8)) as? [String: [String: Any]]
                #expect(body?["error"]?["code"] as? String == "not_recorded")
                #expect(body?["error"]?["nearest"] as? String == Self.origin + "/posts?limit=2")
                #expect(body?["error"]?["differences"] as? [String] == ["parameter 'limit' is '5', recorded '2'"])
                let cursor = try await client.get("/posts?limit=2&cursor=zz")
                #expect((try JSONSerialization.jsonObject(with: Data(cursor.text.utf8)) as? [String: [String: Any]])?["error"]?["nearest"] as? String
                        == Self.origin + "/posts?limit=2&cursor=c2")
                #expect(try await client.get("/posts?limit=5").status == .notFound)
                #expect(try await client.get("/_admin/misses").text == "\(Self.origin)/posts?limit=5\n\(Self.origin)/posts?limit=2&cursor=zz\n")
                let journal = try await client.get("/_admin/journal").decoded([JournalEntry].self)
                #expect(journal.map(\.miss) == [true, true, true, nil])
            }
        }
    }

    @Test func whatASyncAddsIsServedAtTheNextMiss() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror) { _, client async throws in
                #expect(try await client.get("/feed?limit=1").status == .notFound)
                try await Self.record(in: mirror, name: "feed", first: "/feed?limit=1", plan: .link, items: .root,
                                      pages: [(url: "/feed?limit=1", keys: [4], envelope: PageEnvelope(fields: [], before: "", after: ""))])
                #expect(try await client.get("/feed?limit=1").text == "[\(Self.item(4))]")
            }
        }
    }

    @Test func faultsAndRateLimitsApplyToMirroredPages() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror, configure: { $0.faults = [try! FaultRule(spec: "route=/articles,status=503")] }) { _, client async throws in
                #expect(try await client.get("/articles?per_page=1").status == .serviceUnavailable)
                #expect(try await client.get("/articles?page=2&per_page=1").status == .serviceUnavailable)
                #expect(try await client.get("/posts?limit=2").status == .ok)
            }
            try await Self.serving(mirror, configure: { $0.rateLimit = try! RateLimit(spec: "1/min") }) { _, client async throws in
                #expect(try await client.get("/posts?limit=2").status == .ok)
                let refused = try await client.get("/posts?limit=2")
                #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
            }
        }
    }

    @Test func onlyTheNamedCollectionsAreServedAndAnUnknownNameIsRefused() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror, configure: { $0.mirror?.names = ["articles"] }) { _, client async throws in
                #expect(try await client.get("/articles?per_page=1").status == .ok)
                #expect(try await client.get("/posts?limit=2").status == .notFound)
            }
            var configuration = MockServerConfiguration()
            configuration.mirror = MirrorSource(store: mirror, names: ["nope"])
            await #expect(throws: MockServerError.self) { _ = try await RunningMockServer.start(configuration) }
        }
    }

    @Test func theDocumentListsEachCollectionsPathAndTheMisses() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror) { _, client async throws in
                let paths = try OpenAPIDocumentTests.document(try await client.get("/openapi.json"))["paths"] as? [String: Any]
                #expect(paths?.keys.sorted() == ["/_admin/faults", "/_admin/journal", "/_admin/misses", "/_admin/reset", "/_admin/stats",
                                                 "/articles", "/openapi.json", "/posts", "/users"])
                #expect(try await client.get("/styles").status == .notFound)
            }
        }
    }

    @Test func rePagingServesTheStoredItemsInTheirOrderInAnyStyle() async throws {
        try await Self.withMirror { mirror, _ in
            try await Self.serving(mirror, configure: { $0.mirror?.repaging = (.cursorNull, 1) }) { _, client async throws in
                let first = try JSONSerialization.jsonObject(with: Data(try await client.get("/posts").text.utf8)) as? [String: Any]
                #expect((first?["data"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [9])
                let cursor = try #require(first?["next_cursor"] as? String)
                let second = try await client.get("/posts?cursor=\(cursor)")
                #expect(second.text.contains(#""id":3"#) && !second.text.contains(#""id":5"#))
                let tag = try #require(second.headers[.eTag])
                #expect(try await client.get("/posts?cursor=\(cursor)", headers: [.ifNoneMatch: tag]).status == .notModified)
            }
            try await Self.serving(mirror, configure: { $0.mirror?.repaging = (.offsetTotal, nil) }) { _, client async throws in
                #expect(try await client.get("/posts?offset=2").text == #"{"items":[\#(Self.item(5))],"limit":20,"offset":2,"total":3}"#)
            }
        }
    }
}

extension Array {
    /// `transform` of each element, one after another.
    func asyncMap<Result>(_ transform: (Element) async throws -> Result) async rethrows -> [Result] {
        var results: [Result] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
