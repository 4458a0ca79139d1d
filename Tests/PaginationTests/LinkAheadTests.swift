import Foundation
import JSON
import Pagination
import Testing

/// A page's link read before its items, from a quick pass over the body: what a sync uses to
/// send the next request while it reads the page.
@Suite("Links read ahead of the items")
struct LinkAheadTests {
    static let url = URL(string: "http://o.test/things?limit=2")!

    /// The page as the sync reads it: skimmed to what `plan` needs ahead of the items, or read in full.
    static func page(_ body: String, link: [String] = [], totalCount: String? = nil, skimmingFor plan: PaginationPlan?) throws -> PageResponse {
        let bytes = Data(body.utf8)
        let document = if let plan { try JSONDocument(skimming: bytes, recordedDepth: plan.linkDepth) } else { try JSONDocument(bytes) }
        return PageResponse(url: url, linkFields: link, totalCountField: totalCount, document: document)
    }

    @Test(arguments: [
        (PaginationStyle.cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: nil), #"{"data": [{"id": 1}], "next_cursor": "c2"}"#, [String]()),
        (.cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: nil), #"{"data": [{"id": 1}], "next_cursor": "0"}"#, []),
        (.cursor(path: JSONPath(["meta", "cursor"]), parameter: "after", hasMore: JSONPath(["meta", "has_more"])),
         #"{"data": [{"id": 1}], "meta": {"cursor": "c2", "has_more": false}}"#, []),
        (.nextURL(path: JSONPath(["links", "next"])), #"{"data": [{"id": 1}], "links": {"next": {"href": "/things?page=2"}}}"#, []),
        (.nextURL(path: JSONPath(["next"])), #"{"results": [{"id": 1}], "next": null}"#, []),
        (.link, #"[{"id": 1}]"#, [#"<http://o.test/things?page=2>; rel="next""#]),
        (.link, #"[{"id": 1}]"#, [#"<http://o.test/things?page=1>; rel="prev""#]),
    ])
    func theQuickPassFindsTheLinkTheReadingFinds(style: PaginationStyle, body: String, link: [String]) throws {
        let items = body.hasPrefix("[") ? JSONPath.root : JSONPath([body.contains("results") ? "results" : "data"])
        let plan = PaginationPlan(style: style, items: items, key: JSONPath(["id"]), sizeParameter: "limit")
        #expect(plan.linksAheadOfItems)
        let ahead = try #require(plan.linkAhead(of: try Self.page(body, link: link, skimmingFor: plan)))
        #expect(ahead == (try plan.read(try Self.page(body, link: link, skimmingFor: nil))).link)
    }

    /// The total a page states (deep in the body, or in `X-Total-Count`) is read ahead too: a
    /// total that falls during a pass must be seen whichever way the page was read.
    @Test func theQuickPassFindsTheStatedTotal() throws {
        let deep = PaginationPlan(style: .cursor(path: JSONPath(["next_cursor"]), parameter: "cursor", hasMore: nil), items: JSONPath(["data"]),
                                  key: JSONPath(["id"]), sizeParameter: "limit", total: JSONPath(["meta", "page", "total"]))
        let body = #"{"data": [{"id": 1}], "next_cursor": "c2", "meta": {"page": {"total": 7}}}"#
        #expect(try deep.linkAhead(of: try Self.page(body, skimmingFor: deep))?.statedTotal == 7)
        let header = PaginationPlan(style: .link, items: .root, key: JSONPath(["id"]), sizeParameter: "_limit")
        let link = [#"<http://o.test/things?_page=2>; rel="next""#]
        let ahead = try #require(header.linkAhead(of: try Self.page(#"[{"id": 1}]"#, link: link, totalCount: "25", skimmingFor: header)))
        #expect(ahead.statedTotal == 25)
        #expect(ahead == (try header.read(try Self.page(#"[{"id": 1}]"#, link: link, totalCount: "25", skimmingFor: nil))).link)
    }

    @Test func stylesWhoseLinkDependsOnTheItemsDoNotReadAhead() throws {
        for style in [PaginationStyle.offset(parameter: "offset", total: nil), .page(parameter: "page", start: 1, totalPages: nil, total: nil),
                      .hasMore(flag: JSONPath(["has_more"]), parameter: "starting_after"), .single] {
            let plan = PaginationPlan(style: style, items: JSONPath(["data"]), key: JSONPath(["id"]), sizeParameter: "limit")
            #expect(!plan.linksAheadOfItems)
            #expect(plan.linkAhead(of: try Self.page(#"{"data": [{"id": 1}], "has_more": true}"#, skimmingFor: plan)) == nil)
        }
    }
}
