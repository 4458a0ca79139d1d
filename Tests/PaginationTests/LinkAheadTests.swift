import Foundation
import JSON
import Pagination
import Testing

/// A page's link read before its items, from a quick pass over the body: what a sync uses to
/// send the next request while it reads the page.
@Suite("Links read ahead of the items")
struct LinkAheadTests {
    static let url = URL(string: "http://o.test/things?limit=2")!

    static func page(_ body: String, link: [String] = [], skimming: Bool) throws -> PageResponse {
        let bytes = Data(body.utf8)
        let document = skimming ? try JSONDocument(skimming: bytes, recordedDepth: 3) : try JSONDocument(bytes)
        return PageResponse(url: url, linkFields: link, document: document)
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
        let ahead = try #require(plan.linkAhead(of: try Self.page(body, link: link, skimming: true)))
        #expect(ahead == (try plan.read(try Self.page(body, link: link, skimming: false))).link)
    }

    @Test func stylesWhoseLinkDependsOnTheItemsDoNotReadAhead() throws {
        for style in [PaginationStyle.offset(parameter: "offset", total: nil), .page(parameter: "page", start: 1, totalPages: nil, total: nil),
                      .hasMore(flag: JSONPath(["has_more"]), parameter: "starting_after"), .single] {
            let plan = PaginationPlan(style: style, items: JSONPath(["data"]), key: JSONPath(["id"]), sizeParameter: "limit")
            #expect(!plan.linksAheadOfItems)
            #expect(plan.linkAhead(of: try Self.page(#"{"data": [{"id": 1}], "has_more": true}"#, skimming: true)) == nil)
        }
    }
}
