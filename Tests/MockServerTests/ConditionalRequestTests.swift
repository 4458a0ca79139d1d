import Foundation
import HTTPFields
import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("Validators and conditional GET")
struct ConditionalRequestTests {
    @Test func everyGetCarriesStrongETagLastModifiedDateAndCacheControl() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/posts?limit=5")
            let etag = try #require(response.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18)
            #expect(response.headers[.lastModified].flatMap(HTTPDate.parse) != nil)
            #expect(response.headers[.date].flatMap(HTTPDate.parse) != nil)
            #expect(response.headers[.cacheControl] == "max-age=60")
            #expect(response.headers[.vary] == "Accept-Encoding")
        }
    }

    @Test func lastModifiedIsTheNewestUpdatedAtOfThePage() async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/posts?limit=5")
            let newest = try #require(try response.decoded(CursorPage<Post>.self).data.map(\.updatedAt).max())
            #expect(response.headers[.lastModified] == HTTPDate.format(newest))
        }
    }

    @Test func maxAgeZeroIsSentAsMaxAgeZero() async throws {
        try await withMockServer(MockServerConfiguration(maxAge: 0)) { _, client in
            let response = try await client.get("/posts")
            #expect(response.headers[.cacheControl] == "max-age=0")
        }
    }

    @Test(arguments: ["{etag}", "\"nope\", {etag}", "*", "W/{etag}"])
    func matchingIfNoneMatchGetsA304WithoutBody(headerTemplate: String) async throws {
        try await withMockServer { server, client in
            let first = try await client.get("/posts?limit=5")
            let etag = try #require(first.headers[.eTag])
            let revalidated = try await client.get(
                "/posts?limit=5", headers: [.ifNoneMatch: headerTemplate.replacingOccurrences(of: "{etag}", with: etag)]
            )
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body == nil || revalidated.body?.readableBytes == 0)
            #expect(revalidated.headers[.eTag] == etag)
            #expect(revalidated.headers[.cacheControl] == "max-age=60")
            #expect(revalidated.headers[.date] != nil)
            #expect(revalidated.headers[.lastModified] == first.headers[.lastModified])
            #expect(revalidated.headers[.vary] == "Accept-Encoding")
            #expect(server.statistics.bytesSavedBy304 == first.body?.readableBytes)
        }
    }

    @Test func ifNoneMatchTakesPrecedenceOverIfModifiedSince() async throws {
        try await withMockServer { _, client in
            let first = try await client.get("/posts")
            let lastModified = try #require(first.headers[.lastModified])
            let response = try await client.get(
                "/posts", headers: [.ifNoneMatch: "\"stale\"", .ifModifiedSince: lastModified]
            )
            #expect(response.status == .ok)
        }
    }

    @Test func ifModifiedSinceAloneGetsA304WhenNotModified() async throws {
        try await withMockServer { _, client in
            let first = try await client.get("/posts")
            let lastModified = try #require(first.headers[.lastModified])
            let unchanged = try await client.get("/posts", headers: [.ifModifiedSince: lastModified])
            #expect(unchanged.status == .notModified)
            let older = try await client.get("/posts", headers: [.ifModifiedSince: HTTPDate.format(SeedData.epoch)])
            #expect(older.status == .ok)
        }
    }

    @Test func repeatedRequestsReuseTheCachedRepresentation() async throws {
        try await withMockServer { _, client in
            let first = try await client.get("/posts?limit=7")
            let second = try await client.get("/posts?limit=7")
            #expect(first.body == second.body)
            #expect(first.headers[.eTag] == second.headers[.eTag])
        }
    }

    @Test func headHasTheHeadersOfGetWithoutBody() async throws {
        try await withMockServer { _, client in
            let get = try await client.get("/posts")
            let head = try await client.head("/posts")
            #expect(head.status == .ok)
            #expect(head.headers[.eTag] == get.headers[.eTag])
            #expect(head.headers[.contentLength] == get.headers[.contentLength])
            #expect(head.body == nil || head.body?.readableBytes == 0)
        }
    }

    @Test func entityTagListsParseWithWeakTagsAndRejectGarbage() {
        #expect(EntityTagList(fieldValue: "*") == .any)
        #expect(EntityTagList(fieldValue: #" "a" , W/"b""#)
            == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true)]))
        #expect(EntityTagList(fieldValue: "abc") == nil)
        #expect(EntityTag(opaqueTag: "x", isWeak: true).weaklyMatches(EntityTag(opaqueTag: "x")))
        #expect(!EntityTag(opaqueTag: "x", isWeak: true).stronglyMatches(EntityTag(opaqueTag: "x")))
    }

    @Test func httpDatesRoundTripAsIMFFixdate() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("yesterday") == nil)
    }
}
