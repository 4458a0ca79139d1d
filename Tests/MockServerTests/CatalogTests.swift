import Foundation
import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("/articles, /feed and /exercises")
struct CatalogTests {
    @Test func articlesFollowLinkNextToTheEndWithTotalCount() async throws {
        try await withMockServer(MockServerConfiguration(articleCount: 23)) { server, client in
            var path: String? = "/articles?per_page=10"
            var ids: [Int] = []
            var pages = 0
            while let current = path {
                let response = try await client.get(current)
                #expect(response.headers[.xTotalCount] == "23")
                ids += try response.decoded([Article].self).map(\.id)
                let links = Self.links(response.headers[.link] ?? "")
                #expect(links["first"] == "\(server.baseURL)/articles?page=1&per_page=10")
                #expect(links["last"] == "\(server.baseURL)/articles?page=3&per_page=10")
                #expect((links["prev"] == nil) == (pages == 0))
                path = links["next"].map { String($0.dropFirst(server.baseURL.count)) }
                pages += 1
            }
            #expect(ids == Array(1...23))
            #expect(pages == 3)
        }
    }

    @Test func articlesPastTheLastPageAreAnEmptyArray() async throws {
        try await withMockServer(MockServerConfiguration(articleCount: 5)) { _, client in
            let response = try await client.get("/articles?page=9&per_page=10")
            #expect(response.status == .ok)
            #expect(try response.decoded([Article].self).isEmpty)
            #expect(Self.links(response.headers[.link] ?? "")["next"] == nil)
        }
    }

    @Test func feedPagesByOffsetWithTotal() async throws {
        try await withMockServer(MockServerConfiguration(feedCount: 45)) { _, client in
            var offset: Int? = 0
            var ids: [Int] = []
            while let current = offset {
                let page = try await client.get("/feed?offset=\(current)&limit=20").decoded(FeedPage.self)
                #expect(page.total == 45 && page.limit == 20 && page.offset == current)
                ids += page.items.map(\.id)
                offset = page.nextOffset
            }
            #expect(ids == Array(1...45))
        }
    }

    @Test(arguments: ["/articles?page=0", "/articles?per_page=101", "/feed?offset=-1", "/feed?limit=abc"])
    func badPagingValuesGetA400(path: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.get(path)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_query")
        }
    }

    @Test func exercisesIsOneDocumentOfAboutAMegabyteWithAStrongETag() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/exercises")
            let size = try #require(response.body?.readableBytes)
            #expect(size > 900_000 && size < 1_200_000)
            let database = try response.decoded(ExerciseDatabase.self)
            #expect(database.exercises.count == 2_500)
            let etag = try #require(response.headers[.eTag])
            #expect(!etag.hasPrefix("W/"))
            let revalidated = try await client.get("/exercises", headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
        }
    }

    /// `rel` → URL of an RFC 8288 `Link` header.
    static func links(_ header: String) -> [String: String] {
        var links: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">") else { continue }
            let relation = pieces[1].replacingOccurrences(of: "rel=", with: "").replacingOccurrences(of: "\"", with: "")
            links[relation] = String(pieces[0].dropFirst().dropLast())
        }
        return links
    }
}
