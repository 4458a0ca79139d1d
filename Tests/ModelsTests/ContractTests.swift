import Foundation
import Models
import Testing

@Suite("API contract encoding")
struct ContractTests {
    @Test func cursorEnvelopeUsesSnakeCaseAndMarksTheEnd() throws {
        let page = CursorPage(data: [Post(id: 1, title: "안녕 hello", body: "본문", author: "민지", updatedAt: Date(timeIntervalSince1970: 0))], nextCursor: "0")
        let json = String(decoding: try JSONEncoder.api().encode(page), as: UTF8.self)
        #expect(json.contains(#""next_cursor":"0""#))
        #expect(json.contains(#""updated_at":"1970-01-01T00:00:00Z""#))
        #expect(page.isLastPage)
        let decoded = try JSONDecoder.api().decode(CursorPage<Post>.self, from: Data(json.utf8))
        #expect(decoded == page)
    }

    /// The mock's validators hash these bytes: equal posts made apart must encode alike, with
    /// sorted keys and no escaped slashes.
    @Test func equalContentGivesEqualBytes() throws {
        let first = Post(id: 7, title: "a/b", body: "b", author: "a", updatedAt: Date(timeIntervalSince1970: 5))
        let second = Post(id: 7, title: "a/b", body: "b", author: "a", updatedAt: Date(timeIntervalSince1970: 5))
        let bytes = try JSONEncoder.api().encode(first)
        #expect(bytes == (try JSONEncoder.api().encode(second)))
        #expect(String(decoding: bytes, as: UTF8.self)
                == #"{"author":"a","body":"b","id":7,"title":"a/b","updated_at":"1970-01-01T00:00:05Z"}"#)
    }

    @Test func feedPageKnowsTheNextOffset() {
        let items = (0..<10).map { FeedItem(id: $0, kind: "note", text: "x") }
        #expect(FeedPage(items: items, total: 25, offset: 10, limit: 10).nextOffset == 20)
        #expect(FeedPage(items: Array(items.prefix(5)), total: 25, offset: 20, limit: 10).nextOffset == nil)
        #expect(FeedPage(items: [], total: 25, offset: 30, limit: 10).nextOffset == nil)
    }

    @Test func errorBodyShape() throws {
        let json = String(decoding: try JSONEncoder.api().encode(APIErrorBody(code: "not_found", message: "no post 9")), as: UTF8.self)
        #expect(json == #"{"error":{"code":"not_found","message":"no post 9"}}"#)
    }
}
