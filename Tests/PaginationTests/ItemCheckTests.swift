import Foundation
import JSON
import Pagination
import Testing

@Suite("Items and keys")
struct ItemCheckTests {
    let detected = PaginationPlan(style: .single, items: JSONPath(["data"]), key: JSONPath(["id"]), sizeParameter: nil)

    @Test(arguments: [
        (#"{"data": [{"id": 1}, "x"]}"#, PageError.itemNotObject(index: 1, kind: .string)),
        (#"{"data": [{"id": 1}, {"name": "b"}]}"#, PageError.itemWithoutKey(index: 1, key: JSONPath(["id"]), found: "absent")),
        (#"{"data": [{"id": 1.5}]}"#, PageError.itemWithoutKey(index: 0, key: JSONPath(["id"]), found: "the number 1.5")),
        (#"{"data": [{"id": ""}]}"#, PageError.itemWithoutKey(index: 0, key: JSONPath(["id"]), found: "an empty string")),
        (#"{"data": [{"id": 7}, {"id": 7}]}"#, PageError.duplicateKey(.integer(7), firstIndex: 0, secondIndex: 1)),
        (#"{"data": {"id": 7}}"#, PageError.noItems(path: JSONPath(["data"]), found: "an object", members: ["id"])),
    ])
    func refusesPagesThatCannotBeMirrored(_ body: String, _ expected: PageError) throws {
        #expect(throws: expected) { try detected.read(try page("http://x.test/p", body)) }
    }

    @Test func integerAndStringKeysAreDifferent() throws {
        let reading = try detected.read(try page("http://x.test/p", #"{"data": [{"id": 1}, {"id": "1"}]}"#))
        #expect(reading.items.keys == [.integer(1), .string("1")])
    }

    @Test func anObjectWithoutAnyArrayIsNoCollection() throws {
        #expect(throws: PageError.self) { try plan(try page("http://x.test/me", #"{"login": "me", "tags": ["a"]}"#)) }
    }

    @Test func namingAStyleWithoutItsMemberSaysHowToName() throws {
        let spec = try PaginateSpec(parsing: "cursor")
        #expect(throws: PageError.styleNotApplicable(style: "cursor", reason: "the first page has no cursor member; name it with cursor:path=MEMBER")) {
            try plan(try page("http://x.test/p", #"[{"id": 1}]"#), .init(paginate: spec))
        }
        let named = try plan(try page("http://x.test/p", #"{"rows": [{"id": 1}], "meta": {"after": "z"}}"#),
                             .init(paginate: try PaginateSpec(parsing: "cursor:path=meta.after,param=after")))
        #expect(named.style == .cursor(path: JSONPath(["meta", "after"]), parameter: "after", hasMore: nil))
    }

    @Test(arguments: ["spiral", "cursor:bogus=1", "cursor:path", "page:start=one", "next-url:path=a..b"])
    func refusesBadPaginateSpecs(_ text: String) {
        #expect(throws: PaginateSpecError.self) { try PaginateSpec(parsing: text) }
    }
}
