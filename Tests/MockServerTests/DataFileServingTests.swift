import Foundation
import HTTPTypes
import NIOCore
import Testing
@testable import MockServer

@Suite("--data FILE.json: serving")
struct DataFileServingTests {
    static let sample = #"""
        {"books": [{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}, {"id": 5, "title": "Five"}],
         "tags": [{"id": "b c", "label": "spaced"}, {"id": "a", "label": "first"}, {"id": "한", "label": "hangul"}]}
        """#

    /// Runs `body` against a server serving `json` from a temporary file.
    static func withDataServer<Value: Sendable>(
        _ json: String = sample, configure: (inout MockServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (RunningMockServer, MockClient) async throws -> Value
    ) async throws -> Value {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-mock-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = MockServerConfiguration(dataFile: file.path)
        configure(&configuration)
        return try await withMockServer(configuration, body)
    }

    @Test func collectionsAreServedInsteadOfTheSeededData() async throws {
        try await Self.withDataServer { _, client in
            let books = try JSONSerialization.jsonObject(with: Data(try await client.get("/books").text.utf8)) as? [[String: Any]]
            #expect(books?.compactMap { $0["id"] as? Int } == [1, 2, 5])
            #expect(try await client.get("/posts").status == .notFound)
            #expect(try await client.get("/exercises").status == .notFound)
            #expect(try await client.send(.post, "/_admin/tick").status == .notFound)
            let paths = try OpenAPIDocumentTests.document(try await client.get("/openapi.json"))["paths"] as? [String: Any]
            #expect(paths?.keys.contains("/styles/has-more/tags") == true && paths?.keys.contains("/posts") == false)
        }
    }

    @Test func itemsAreReadByIntegerOrStringKeyPercentDecoded() async throws {
        try await Self.withDataServer { _, client in
            let book = try await client.get("/books/5")
            #expect(book.status == .ok && book.text == #"{"id":5,"title":"Five"}"#)
            #expect(try await client.get("/tags/b%20c").text == #"{"id":"b c","label":"spaced"}"#)
            #expect(try await client.get("/tags/%ED%95%9C").status == .ok)
            #expect(try await client.get("/books/3").status == .notFound)
            #expect(try await client.get("/books/abc").status == .notFound)
            let revalidated = try await client.get("/books/5", headers: [.ifNoneMatch: try #require(book.headers[.eTag])])
            #expect(revalidated.status == .notModified)
        }
    }

    @Test func createDrawsTheNextIntegerOrARandomStringKeyAndRefusesATakenOne() async throws {
        try await Self.withDataServer { _, client in
            let book = try await client.send(.post, "/books", json: #"{"title":"Six"}"#)
            #expect(book.status == .created && book.headers[.location] == "/books/6")
            #expect(book.text == #"{"id":6,"title":"Six"}"#)
            let tag = try await client.send(.post, "/tags", json: #"{"label":"drawn"}"#)
            let location = try #require(tag.headers[.location])
            #expect(tag.status == .created && location.wholeMatch(of: /\/tags\/[0-9a-z]{8}/) != nil)
            #expect(try await client.get(location).headers[.eTag] == tag.headers[.eTag])
            let chosen = try await client.send(.post, "/tags", json: #"{"id":"z","label":"chosen"}"#)
            #expect(chosen.status == .created && chosen.headers[.location] == "/tags/z")
            let taken = try await client.send(.post, "/books", json: #"{"id":2,"title":"again"}"#)
            #expect(taken.status == .conflict && taken.errorCode == "conflict")
            let wrongKind = try await client.send(.post, "/books", json: #"{"id":"seven"}"#)
            #expect(wrongKind.status == .badRequest && wrongKind.errorMessage?.contains("'id'") == true)
            let emptyKey = try await client.send(.post, "/tags", json: #"{"id":""}"#)
            #expect(emptyKey.status == .badRequest && emptyKey.errorMessage?.contains("non-empty string") == true)
            let notAnObject = try await client.send(.post, "/books", json: #"[1]"#)
            #expect(notAnObject.status == .badRequest)
        }
    }

    @Test func putReplacesPatchMergesAndTheKeyStays() async throws {
        try await Self.withDataServer { _, client in
            let replaced = try await client.send(.put, "/books/1", json: #"{"id":99,"title":"Uno","year":2001}"#)
            #expect(replaced.status == .ok && replaced.text == #"{"id":1,"title":"Uno","year":2001}"#)
            let patched = try await client.send(.patch, "/books/1", json: #"{"year":null,"lang":"es"}"#)
            #expect(patched.text == #"{"id":1,"lang":"es","title":"Uno","year":null}"#)
            var merge = HTTPFields()
            merge[.contentType] = "application/merge-patch+json"
            let merged = try await client.execute(MockClient.Request(
                "/books/1", method: .patch, headers: merge, body: ByteBuffer(string: #"{"year":null,"meta":{"a":1}}"#)))
            #expect(merged.text == #"{"id":1,"lang":"es","meta":{"a":1},"title":"Uno"}"#)
            #expect(try await client.get("/books/1").text == merged.text)
        }
    }

    @Test func writesHonourIfMatchAndDeleteRemoves() async throws {
        try await Self.withDataServer { _, client in
            let etag = try #require(try await client.get("/tags/a").headers[.eTag])
            let stale = try await client.send(.patch, "/tags/a", json: #"{"label":"x"}"#, headers: [.ifMatch: "\"nope\""])
            #expect(stale.status == .preconditionFailed)
            let fresh = try await client.send(.patch, "/tags/a", json: #"{"label":"x"}"#, headers: [.ifMatch: etag])
            #expect(fresh.status == .ok && fresh.headers[.eTag] != etag)
            let unchanged = try await client.send(.put, "/tags/a", json: #"{"label":"x"}"#)
            #expect(unchanged.headers[.eTag] == fresh.headers[.eTag])
            #expect(try await client.send(.delete, "/tags/a").status == .noContent)
            #expect(try await client.get("/tags/a").status == .notFound)
        }
    }

    @Test func everyStyleServesTheFileCollectionsAndResetRestoresTheFile() async throws {
        try await Self.withDataServer { server, client in
            for style in MockPaginationStyle.allCases {
                let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "tags", pageSize: 2)
                let keys = try await walker.walk().flatMap(\.keys)
                #expect(keys == ["a", "b c", "한"], "\(style.rawValue)")
            }
            #expect(try await client.send(.delete, "/tags/a").status == .noContent)
            #expect(try await client.send(.post, "/_admin/reset").status == .ok)
            #expect(try await client.get("/tags/a").status == .ok)
        }
    }

    @Test func faultsJournalAndStatsCoverTheFileRoutes() async throws {
        let rule = FaultRule(route: "/books/{id}", failure: .status, status: 503, first: 1)
        try await Self.withDataServer(configure: { $0.faults = [rule] }) { server, client in
            #expect(try await client.get("/books/1").status == .serviceUnavailable)
            #expect(try await client.get("/books/1").status == .ok)
            #expect(server.statistics.byRoute["GET /books/{id}"]?.byStatus == ["503": 1, "200": 1])
            let journal = try await client.get("/_admin/journal?limit=2").decoded([JournalEntry].self)
            #expect(journal.map(\.url) == ["/books/1", "/books/1"])
        }
    }

    @Test func theKeyFieldIsConfigurable() async throws {
        try await Self.withDataServer(#"{"people": [{"handle": "ann", "name": "Ann"}]}"#, configure: { $0.keyField = "handle" }) { _, client in
            #expect(try await client.get("/people/ann").status == .ok)
            let created = try await client.send(.post, "/people", json: #"{"name":"Bo"}"#)
            #expect(created.status == .created && created.text.contains(#""handle":""#))
        }
    }
}
