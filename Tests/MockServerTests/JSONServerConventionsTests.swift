import Foundation
import HTTPTypes
import Testing

@testable import MockServer

/// json-server's conventions on a `--data` collection: what its users send, answered as it answers.
@Suite("--data FILE.json: json-server's query conventions, /db and --watch")
struct JSONServerConventionsTests {
    static let books = #"""
        {"books": [{"id": 1, "title": "Swift on Linux", "author": {"name": "Kim"}, "year": 2021},
                   {"id": 2, "title": "Caching HTTP", "author": {"name": "Lee"}, "year": 2019},
                   {"id": 3, "title": "Offline first", "author": {"name": "Kim"}, "year": 2023}]}
        """#

    static func ids(_ response: MockClient.Response) throws -> [Int] {
        try (JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    @Test func filtersSearchAndSortChooseTheItems() async throws {
        try await DataFileServingTests.withDataServer(Self.books) { _, client async throws in
            #expect(try Self.ids(try await client.get("/books?author.name=Kim")) == [1, 3])
            #expect(try Self.ids(try await client.get("/books?year=2019")) == [2])
            #expect(try Self.ids(try await client.get("/books?q=CACHING")) == [2])
            #expect(try Self.ids(try await client.get("/books?_sort=-year")) == [3, 1, 2])
            #expect(try Self.ids(try await client.get("/books?_sort=year&_order=desc&_limit=2")) == [3, 1])
            let filtered = try await client.get("/books?author.name=Kim")
            #expect(filtered.headers[.xTotalCount] == "2")
            #expect(try await client.get("/books?author.name=Kim", headers: [.ifNoneMatch: try #require(filtered.headers[.eTag])]).status == .notModified)
        }
    }

    @Test func pagesComeAsJSONServer017AndAs10Shape() async throws {
        try await DataFileServingTests.withDataServer(Self.books) { server, client async throws in
            let old = try await client.get("/books?_page=2&_limit=2")
            #expect(try Self.ids(old) == [3] && old.headers[.xTotalCount] == "3")
            #expect(old.headers[.link] == "<\(server.baseURL)/books?_page=1&_limit=2>; rel=\"first\", <\(server.baseURL)/books?_page=1&_limit=2>; rel=\"prev\", "
                    + "<\(server.baseURL)/books?_page=2&_limit=2>; rel=\"last\"")
            let new = try JSONSerialization.jsonObject(with: Data(try await client.get("/books?_page=1&_per_page=2").text.utf8)) as? [String: Any]
            #expect(new?["pages"] as? Int == 2 && new?["items"] as? Int == 3 && new?["next"] as? Int == 2 && new?["prev"] is NSNull)
            #expect((new?["data"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [1, 2])
        }
    }

    @Test func aParameterNotUnderstoodIsRefusedByName() async throws {
        try await DataFileServingTests.withDataServer(Self.books) { _, client async throws in
            let typo = try await client.get("/books?titel=Swift")
            #expect(typo.status == .badRequest && typo.text.contains("'titel'"))
            let mixed = try await client.get("/books?_page=1&page=2")
            #expect(mixed.status == .badRequest && mixed.text.contains("'page'"))
            #expect(try await client.get("/books?_order=sideways&_sort=id").status == .badRequest)
            // The style's own parameters still page as before.
            #expect(try Self.ids(try await client.get("/books?page=2&per_page=2")) == [3])
        }
    }

    @Test func dbIsEveryCollection() async throws {
        try await DataFileServingTests.withDataServer(Self.books) { _, client async throws in
            let db = try JSONSerialization.jsonObject(with: Data(try await client.get("/db").text.utf8)) as? [String: [[String: Any]]]
            #expect(db?.keys.sorted() == ["books"] && db?["books"]?.count == 3)
        }
    }

    @Test func watchServesTheFileAsItIsNowAndKeepsTheLastGoodOne() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-watch-\(UUID().uuidString).json")
        try Data(Self.books.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = MockServerConfiguration(dataFile: file.path)
        configuration.watchesDataFile = true
        try await withMockServer(configuration) { _, client async throws in
            #expect(try Self.ids(try await client.get("/books?year=2030")) == [])
            try Data(#"{"books": [{"id": 9, "title": "New", "year": 2030}]}"#.utf8).write(to: file)
            #expect(try Self.ids(try await client.get("/books?year=2030")) == [9])
            try Data("{broken".utf8).write(to: file)
            #expect(try Self.ids(try await client.get("/books")) == [9])
        }
    }
}
