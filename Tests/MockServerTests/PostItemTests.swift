import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("GET, PUT, PATCH, DELETE /posts/{id}")
struct PostItemTests {
    private static let replacement = #"{"title":"바뀐 제목 updated","body":"new body","author":"Bob Lee"}"#

    @Test func getsOnePostAnd404sForMissingOrInvalidIDs() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 5)) { _, client in
            let found = try await client.get("/posts/3")
            #expect(try found.decoded(Post.self).id == 3)
            #expect(found.headers[.eTag] != nil && found.headers[.lastModified] != nil)
            for path in ["/posts/6", "/posts/0", "/posts/abc"] {
                let missing = try await client.get(path)
                #expect(missing.status == .notFound)
                #expect(missing.errorCode == "not_found")
            }
        }
    }

    @Test func putWithMatchingIfMatchReplacesAndChangesTheETag() async throws {
        try await withMockServer { _, client in
            let etag = try #require(try await client.get("/posts/3").headers[.eTag])
            let response = try await client.send(.put, "/posts/3", json: Self.replacement, headers: [.ifMatch: etag])
            #expect(response.status == .ok)
            #expect(try response.decoded(Post.self).title == "바뀐 제목 updated")
            let newTag = try #require(response.headers[.eTag])
            #expect(newTag != etag)
            let stale = try await client.send(.put, "/posts/3", json: Self.replacement, headers: [.ifMatch: etag])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.errorCode == "precondition_failed")
        }
    }

    @Test func patchChangesOnlyTheGivenFields() async throws {
        try await withMockServer { _, client in
            let before = try await client.get("/posts/4").decoded(Post.self)
            let response = try await client.send(.patch, "/posts/4", json: #"{"title":"patched 🩹"}"#)
            let after = try response.decoded(Post.self)
            #expect(after.title == "patched 🩹")
            #expect(after.body == before.body && after.author == before.author)
            #expect(after.updatedAt > before.updatedAt)
            let empty = try await client.send(.patch, "/posts/4", json: "{}")
            #expect(empty.status == .badRequest)
        }
    }

    @Test func deleteRemovesThePostAndIfMatchStarRequiresItToExist() async throws {
        try await withMockServer { _, client in
            let deleted = try await client.send(.delete, "/posts/7", headers: [.ifMatch: "*"])
            #expect(deleted.status == .noContent)
            #expect(try await client.get("/posts/7").status == .notFound)
            #expect(try await client.send(.delete, "/posts/7").status == .notFound)
        }
    }

    @Test func requireIfMatchGives428WithoutIt() async throws {
        try await withMockServer(MockServerConfiguration(requireIfMatch: true)) { _, client in
            let response = try await client.send(.put, "/posts/1", json: Self.replacement)
            #expect(response.status == .preconditionRequired)
            #expect(response.errorCode == "precondition_required")
            let etag = try #require(try await client.get("/posts/1").headers[.eTag])
            let allowed = try await client.send(.put, "/posts/1", json: Self.replacement, headers: [.ifMatch: etag])
            #expect(allowed.status == .ok)
        }
    }

    @Test func editingAPostChangesOnlyTheValidatorsOfItsPages() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 50)) { _, client in
            let before = try await client.allPosts(limit: 10).etags
            let itemBefore = try await client.get("/posts/16").headers[.eTag]
            let edited = try await client.send(.patch, "/posts/15", json: #"{"body":"edited"}"#)
            #expect(edited.status == .ok)
            let after = try await client.allPosts(limit: 10).etags
            #expect(after[0] == before[0] && after[2...] == before[2...])
            #expect(after[1] != before[1])
            #expect(try await client.get("/posts/16").headers[.eTag] == itemBefore)
        }
    }

    @Test func deletingAPostKeepsCursorPagesGapFreeAndChangesItsPage() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 30)) { _, client in
            let before = try await client.allPosts(limit: 10)
            #expect(try await client.send(.delete, "/posts/12").status == .noContent)
            let after = try await client.allPosts(limit: 10)
            #expect(after.posts.map(\.id) == Array(1...11) + Array(13...30))
            #expect(after.etags[0] == before.etags[0])
            #expect(after.etags[1] != before.etags[1])
        }
    }
}
