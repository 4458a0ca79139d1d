import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("Writes to /posts")
struct PostWriteTests {
    private static let draft = #"{"title":"새 글 — new post 🚀","body":"본문 body","author":"Alice Kim"}"#

    @Test func createReturns201WithLocationETagAndTheNextID() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 10)) { _, client in
            let response = try await client.send(.post, "/posts", json: Self.draft)
            #expect(response.status == .created)
            #expect(response.headers[.location] == "/posts/11")
            let post = try response.decoded(Post.self)
            #expect(post.id == 11 && post.title == "새 글 — new post 🚀")
            let fetched = try await client.get("/posts/11")
            #expect(fetched.headers[.eTag] == response.headers[.eTag])
            #expect(fetched.body == response.body)
        }
    }

    @Test func createChangesOnlyTheLastPagesETag() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 45)) { _, client in
            let before = try await client.allPosts(limit: 10).etags
            let created = try await client.send(.post, "/posts", json: Self.draft)
            #expect(created.status == .created)
            let after = try await client.allPosts(limit: 10).etags
            #expect(before.count == 5 && after.count == 5)
            #expect(Array(after.prefix(4)) == Array(before.prefix(4)))
            #expect(after[4] != before[4])
        }
    }

    @Test func createAfterAFullLastPageAddsAPageAndChangesTheOldLastOne() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 40)) { _, client in
            let before = try await client.allPosts(limit: 10).etags
            let created = try await client.send(.post, "/posts", json: Self.draft)
            #expect(created.status == .created)
            let after = try await client.allPosts(limit: 10).etags
            #expect(after.count == 5)
            #expect(Array(after.prefix(3)) == Array(before.prefix(3)))
            #expect(after[3] != before[3])
        }
    }

    @Test(arguments: [
        (#"{"body":"b","author":"a"}"#, "title"),
        (#"{"title":"t","body":5,"author":"a"}"#, "body"),
        (#"{"title":"t","body":"b","author":"  "}"#, "author"),
    ])
    func invalidBodiesGetA400NamingTheField(body: String, field: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.post, "/posts", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_field")
            #expect(response.errorMessage?.contains("'\(field)'") == true)
        }
    }

    @Test(arguments: [
        (#"{"title":null}"#, "field 'title': must be a string, not null"),
        (#"{"author":"a","body":null}"#, "field 'body': must be a string, not null"),
        ("{}", "a patch needs at least one of title, body, author"),
        (#"{"colour":"red"}"#, "a patch needs at least one of title, body, author"),
        (#"{"title":" \t\r\n"}"#, "field 'title': must contain a character other than spaces, tabs and line breaks"),
    ])
    func patchesTheDocumentForbidsGetA400SayingWhy(body: String, message: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.patch, "/posts/1", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains(message) == true, "\(response.errorMessage ?? "")")
        }
    }

    @Test func anyTextWithACharacterBesidesSpacesTabsAndLineBreaksIsATitle() async throws {
        try await withMockServer { _, client in
            for title in ["\u{3000}", "\u{85}", "x", " 가 "] {
                let response = try await client.send(.patch, "/posts/1", json: #"{"title":"\#(title)"}"#)
                #expect(response.status == .ok, "\(title.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test func nonJSONBodyGetsA400() async throws {
        try await withMockServer { _, client in
            let response = try await client.send(.post, "/posts", json: "{not json")
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "malformed_body")
        }
    }
}
