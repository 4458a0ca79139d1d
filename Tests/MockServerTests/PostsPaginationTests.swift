import JSON
import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("GET /posts cursor pagination")
struct PostsPaginationTests {
    @Test func walksEveryPageWithoutDuplicatesOrGapsAndEndsWithZero() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 47)) { _, client in
            let (posts, etags) = try await client.allPosts(limit: 10)
            #expect(posts.map(\.id) == Array(1...47))
            #expect(etags.count == 5)
        }
    }

    @Test func lastPageCarriesZeroCursorAndEmptyCollectionIsOneEmptyPage() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 0)) { _, client in
            let page = try await client.get("/posts").decoded(CursorPage<Post>.self)
            #expect(page.data.isEmpty)
            #expect(page.nextCursor == "0")
        }
    }

    /// Seed 004's client asks for the first page with an empty cursor, as Slack-style APIs allow.
    @Test(arguments: ["/posts?cursor=&limit=5", "/styles/cursor-null/posts?cursor=&limit=5", "/styles/cursor-empty/users?limit=5&cursor="])
    func anEmptyCursorAsksForTheFirstPage(path: String) async throws {
        try await withMockServer { _, client in
            let withEmpty = try await client.get(path)
            let without = try await client.get(path.replacingOccurrences(of: "cursor=&", with: "").replacingOccurrences(of: "&cursor=", with: ""))
            #expect(withEmpty.status == .ok)
            #expect(withEmpty.text == without.text)
        }
    }

    @Test func defaultLimitIsTwentyAndMaximumIsAHundred() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 150)) { _, client in
            let defaultPage = try await client.get("/posts").decoded(CursorPage<Post>.self)
            let largestPage = try await client.get("/posts?limit=100").decoded(CursorPage<Post>.self)
            #expect(defaultPage.data.count == 20)
            #expect(largestPage.data.count == 100)
        }
    }

    @Test func cursorStaysValidWhilePostsAreInserted() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 25)) { _, client in
            let first = try await client.get("/posts?limit=10").decoded(CursorPage<Post>.self)
            for index in 0..<3 {
                let created = try await client.send(
                    .post, "/posts", json: #"{"title":"new \#(index)","body":"본문","author":"tester"}"#
                )
                #expect(created.status == .created)
            }
            var seen = first.data.map(\.id)
            var cursor = first.nextCursor
            while cursor != "0" {
                let page = try await client.get("/posts?limit=10&cursor=\(cursor)").decoded(CursorPage<Post>.self)
                seen += page.data.map(\.id)
                cursor = page.nextCursor
            }
            #expect(seen == Array(1...28))
        }
    }

    @Test(arguments: [
        "limit=-1", "limit=abc", "limit=0", "limit=101", "cursor=%zz", "cursor=garbage", "cursor=0", "limit=", "limit=5&limit=6",
        "cursor=&cursor=&limit=5",
    ])
    func badQueryValuesGetA400WithAJSONErrorBody(query: String) async throws {
        try await withMockServer { _, client in
            let response = try await client.get("/posts?\(query)")
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.errorCode == "invalid_query")
            #expect(response.errorMessage?.contains(String(query.prefix { $0 != "=" })) == true)
        }
    }

    @Test(arguments: [ItemKey.integer(40), .integer(41), .integer(-7), .integer(Int.max), .string("usr_k3j9"), .string("é 한글")])
    func cursorsAreOpaqueAndRoundTrip(key: ItemKey) throws {
        let kind: ItemCollection.KeyKind = if case .integer = key { .integer } else { .string }
        for direction in [KeysetCursor.Direction.after, .before] {
            let cursor = KeysetCursor(direction, key)
            #expect(cursor.encoded.wholeMatch(of: try Regex(KeysetCursor.pattern(for: kind))) != nil)
            #expect(!cursor.encoded.contains(key.text))
            #expect(try KeysetCursor(encoded: cursor.encoded, keyKind: kind) == cursor)
        }
    }

    @Test func consecutiveIntegerCursorsLookUnrelatedAndMalformedOnesAreRejected() {
        #expect(KeysetCursor(.after, .integer(40)).encoded.dropFirst(8) != KeysetCursor(.after, .integer(41)).encoded.dropFirst(8))
        for bad in ["", "x0000000000000000", "a00", "a000000000000000g", "A0000000000000000"] {
            #expect(throws: APIError.self) { try KeysetCursor(encoded: bad, keyKind: .integer) }
        }
        #expect(throws: APIError.self) { try KeysetCursor(encoded: "a0", keyKind: .string) }
    }
}
