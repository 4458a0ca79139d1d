import HTTPTypes
import Testing

@testable import MockServer

@Suite("Cache-Control flags and misbehaviours")
struct CacheDirectivesTests {
    @Test(arguments: [
        (MockServerConfiguration(maxAge: 30, noCache: true), "no-cache, max-age=30"),
        (MockServerConfiguration(noStore: true), "no-store"),
        (MockServerConfiguration(isPrivate: true), "private, max-age=60"),
        (MockServerConfiguration(staleWhileRevalidate: 30, staleIfError: 300), "max-age=60, stale-while-revalidate=30, stale-if-error=300"),
    ])
    func cacheControlFollowsTheFlags(configuration: MockServerConfiguration, expected: String) async throws {
        try await withMockServer(configuration) { _, client async throws in
            for path in ["/posts", "/articles", "/feed", "/posts/1"] {
                #expect(try await client.get(path).headers[.cacheControl] == expected)
            }
        }
    }

    @Test func weakETagsAreSentWeakAndStillRevalidate() async throws {
        try await withMockServer(MockServerConfiguration(weakETags: true)) { _, client in
            let etag = try #require(try await client.get("/posts").headers[.eTag])
            #expect(etag.hasPrefix("W/\""))
            #expect(try await client.get("/posts", headers: [.ifNoneMatch: etag]).status == .notModified)
        }
    }

    @Test func unstableETagChangesOnEveryResponseAndNeverRevalidates() async throws {
        try await withMockServer(MockServerConfiguration(unstableETag: true)) { _, client in
            let first = try #require(try await client.get("/posts").headers[.eTag])
            let second = try await client.get("/posts", headers: [.ifNoneMatch: first])
            #expect(second.status == .ok)
            #expect(second.headers[.eTag] != first)
        }
    }

    @Test func ignoreConditionalsNeverAnswers304() async throws {
        try await withMockServer(MockServerConfiguration(ignoreConditionals: true)) { _, client in
            let first = try await client.get("/posts")
            let etag = try #require(first.headers[.eTag])
            let response = try await client.get(
                "/posts", headers: [.ifNoneMatch: etag, .ifModifiedSince: first.headers[.lastModified] ?? ""]
            )
            #expect(response.status == .ok)
            #expect(response.body == first.body)
        }
    }
}
