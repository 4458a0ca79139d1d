import Foundation
import JSON
import Pagination
import Testing

@Suite("Cursor end conditions")
struct CursorEndTests {
    let detected = PaginationPlan(style: .cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: JSONPath(["has_more"])),
                                  items: JSONPath(["data"]), key: JSONPath(["id"]), sizeParameter: "limit")

    @Test(arguments: [
        (#"{"data": [{"id": 1}], "next_cursor": null}"#, "'next_cursor' is null"),
        (#"{"data": [{"id": 1}]}"#, "'next_cursor' is absent"),
        (#"{"data": [{"id": 1}], "next_cursor": ""}"#, "'next_cursor' is \"\""),
        (#"{"data": [{"id": 1}], "next_cursor": "0"}"#, "'next_cursor' is \"0\""),
        (#"{"data": [{"id": 1}], "next_cursor": "abc", "has_more": false}"#, "'has_more' is false"),
    ])
    func endsWhereRealAPIsEnd(_ body: String, _ reason: String) throws {
        let reading = try detected.read(try page("http://x.test/p?cursor=a", body))
        #expect(reading.link.next == nil && reading.link.endReason == reason)
    }

    @Test func continuesWithTheCursorAsAQueryParameter() throws {
        let reading = try detected.read(try page("http://x.test/p?limit=2&cursor=a", #"{"data": [], "next_cursor": 42}"#))
        #expect(reading.link.next?.absoluteString == "http://x.test/p?limit=2&cursor=42")
    }
}
