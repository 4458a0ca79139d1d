import Foundation
import JSON
import Testing
@testable import Pagination

@Suite("Bodies of every shape: NDJSON, one object, scalars, keysets")
struct BodyShapeTests {
    @Test func ndjsonLinesAreReadAsAnArray() throws {
        let document = try PageBody.document(Data("{\"id\":1}\n{\"id\":2}\r\n\n{\"id\":3}\n".utf8), recordedDepth: 4, itemsAtRoot: true)
        #expect(document.root.kind == .array && document.root.count == 3)
        #expect(throws: JSONSyntaxError.self) { try PageBody.document(Data("{\"id\":1}\n{oops}".utf8), recordedDepth: 4, itemsAtRoot: true) }
    }

    @Test func oneObjectIsOneItemUnlessItHoldsTheItems() throws {
        let single = try PageBody.document(Data(#"{"name": "settings", "tags": ["a", "b"]}"#.utf8), recordedDepth: 4, itemsAtRoot: true)
        #expect(single.root.kind == .array && single.root.count == 1)
        let envelope = try PageBody.document(Data(#"{"data": [{"id": 1}], "next": null}"#.utf8), recordedDepth: 4, itemsAtRoot: true)
        #expect(envelope.root.kind == .object)
        let named = try PageBody.document(Data(#"{"name": "settings"}"#.utf8), recordedDepth: 4, itemsAtRoot: false)
        #expect(named.root.kind == .object, "items the user put in a member leave the object as it is")
    }

    @Test func scalarsAreKeyedByTheirContentAndTwinsStayApart() throws {
        let first = try page("http://o.test/tags", #"["a", "b", "a", 3]"#)
        let plan = try PaginationDetector.plan(for: first)
        #expect(plan.key == .contentHash)
        let keys = try plan.items(of: first).keys.map(\.text)
        #expect(keys.count == 4 && Set(keys).count == 4 && keys[2] == keys[0] + "~2")
        #expect(try PaginationDetector.plan(for: try page("http://o.test/x", #"{"data": [1, 2], "next_cursor": null}"#)).items == JSONPath(["data"]))
    }

    @Test func aKeysetPageAsksAfterItsLastKeyOrMember() throws {
        let keyset = PaginationPlan(style: .after(parameter: "after", member: nil), items: .root, key: JSONPath(["id"]), sizeParameter: "limit")
        let full = try keyset.read(try page("http://o.test/items?limit=2", #"[{"id": 4}, {"id": 7}]"#))
        #expect(full.link.next?.absoluteString == "http://o.test/items?limit=2&after=7")
        #expect(try keyset.read(try page("http://o.test/items?limit=2&after=7", #"[{"id": 9}]"#), typicalSize: 2).link.next == nil)
        let search = PaginationPlan(style: .after(parameter: "search_after", member: JSONPath(["sort"])), items: JSONPath(["hits", "hits"]),
                                    key: JSONPath(["_id"]), sizeParameter: "size")
        let hits = try search.read(try page("http://o.test/s?size=1", #"{"hits": {"hits": [{"_id": "a", "sort": [5, "a"]}]}}"#))
        #expect(hits.link.next.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.last?.value } == #"[5,"a"]"#)
    }
}

extension BodyShapeTests {
    /// fastapi-pagination's CursorPage: the token in `next_page` goes back as `?cursor=`.
    @Test func aTokenInNextPageIsSentBackAsCursor() throws {
        let first = try page("http://o.test/items", #"{"items": [{"id": 1}], "total": null, "current_page": "Pj0x", "previous_page": null, "next_page": "Pj4x"}"#)
        let plan = try PaginationDetector.plan(for: first)
        #expect(plan.style == .cursor(path: JSONPath(["next_page"]), parameter: "cursor", hasMore: nil))
        #expect(try plan.read(first).link.next?.absoluteString == "http://o.test/items?cursor=Pj4x")
        let numbered = try page("http://o.test/items", #"{"items": [{"id": 1}], "next_page": 2}"#)
        #expect(try PaginationDetector.plan(for: numbered).style != .cursor(path: JSONPath(["next_page"]), parameter: "cursor", hasMore: nil))
    }
}
