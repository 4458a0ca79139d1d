import Foundation
import JSON
import Testing
@testable import Pagination

@Suite("A partial mirror is never silent")
struct PartialMirrorTests {
    @Test func aSearchResponseStatesItsTotalAndTheCheckSeesItMissing() throws {
        let first = try page("http://o.test/search?size=20", #"{"hits": {"total": {"value": 95, "relation": "eq"}, "hits": [{"_id": "a"}, {"_id": "b"}]}}"#)
        let plan = try PaginationDetector.plan(for: first)
        #expect(plan.items == JSONPath(["hits", "hits"]) && plan.total == JSONPath(["hits", "total", "value"]))
        let reading = try plan.read(first)
        #expect(reading.link.statedTotal == 95)
        #expect(PartialMirror.missingItems(statedTotal: 95, stored: 20)?.contains("states 95 items, 20 are stored") == true)
        #expect(PartialMirror.missingItems(statedTotal: 95, stored: 95) == nil)
        #expect(PartialMirror.missingItems(statedTotal: nil, stored: 3) == nil)
    }

    @Test func aCountMemberIsNotTakenForTheCollectionsSizeOutsideOffsetAndPageStyles() throws {
        let first = try page("http://o.test/things", #"{"count": 2, "next_cursor": "x", "data": [{"id": 1}, {"id": 2}]}"#)
        #expect(try PaginationDetector.plan(for: first).total == nil)
    }

    @Test func aPageSizeTheServerIgnoredIsSaid() {
        #expect(PartialMirror.ignoredPageSize(asked: 50, parameter: "limit", itemCount: 30, pointsOnward: true)?
            .contains("50 items asked with 'limit', 30 sent") == true)
        #expect(PartialMirror.ignoredPageSize(asked: 10, parameter: "per_page", itemCount: 30, pointsOnward: false) != nil)
        // A collection smaller than a page, and the size honoured, say nothing.
        #expect(PartialMirror.ignoredPageSize(asked: 50, parameter: "limit", itemCount: 7, pointsOnward: false) == nil)
        #expect(PartialMirror.ignoredPageSize(asked: 50, parameter: "limit", itemCount: 50, pointsOnward: true) == nil)
        #expect(PartialMirror.ignoredPageSize(asked: nil, parameter: nil, itemCount: 30, pointsOnward: true) == nil)
    }

    @Test func aMemberPaginateNamesThatTheFirstPageLacksIsSaid() throws {
        let document = try JSONDocument(Data(#"{"data": [], "meta": {"next": "abc"}}"#.utf8))
        #expect(PartialMirror.absentMember(of: try PaginateSpec(parsing: "cursor:path=meta.after"), in: document)?
            .contains("no member 'meta.after'") == true)
        #expect(PartialMirror.absentMember(of: try PaginateSpec(parsing: "cursor:path=meta.next,param=after"), in: document) == nil)
        #expect(PartialMirror.absentMember(of: nil, in: document) == nil)
    }

    @Test func thePlanASourceGivesAgainKeepsThePass() throws {
        let first = try page("http://o.test/things", #"{"meta": {"after": "x"}, "data": [{"id": 1, "uuid": "u"}]}"#)
        let overrides = PaginationDetector.Overrides(paginate: try PaginateSpec(parsing: "cursor:path=meta.after,param=after"),
                                                     key: JSONPath(["uuid"]))
        let plan = try PaginationDetector.plan(for: first, overrides: overrides)
        #expect(plan.agrees(with: overrides))
        #expect(plan.agrees(with: PaginationDetector.Overrides()))
        #expect(!plan.agrees(with: PaginationDetector.Overrides(paginate: try PaginateSpec(parsing: "cursor:path=meta.after,param=cursor"))))
        #expect(!plan.agrees(with: PaginationDetector.Overrides(paginate: try PaginateSpec(parsing: "offset"))))
        #expect(!plan.agrees(with: PaginationDetector.Overrides(key: JSONPath(["id"]))))
    }
}
