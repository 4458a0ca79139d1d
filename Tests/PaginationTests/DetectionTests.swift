import Foundation
import JSON
import Pagination
import Testing

/// A page as a server would send it.
func page(_ url: String, _ body: String, link: String? = nil, totalCount: String? = nil) throws -> PageResponse {
    PageResponse(url: URL(string: url)!, linkFields: link.map { [$0] } ?? [], totalCountField: totalCount,
                 document: try JSONDocument(Data(body.utf8)))
}

func plan(_ page: PageResponse, _ overrides: PaginationDetector.Overrides = .init()) throws -> PaginationPlan {
    try PaginationDetector.plan(for: page, overrides: overrides)
}

/// Detection against the envelopes of real APIs' own pagination.
@Suite("Pagination detection")
struct DetectionTests {
    let two = #"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]"#

    @Test func djangoRestFrameworkNextURL() throws {
        let first = try page("http://x.test/api/posts/", #"{"count": 5, "next": "http://x.test/api/posts/?cursor=cD0y", "previous": null, "results": \#(two)}"#)
        let detected = try plan(first)
        #expect(detected.style == .nextURL(path: JSONPath(["next"])))
        #expect(detected.items == JSONPath(["results"]) && detected.key == JSONPath(["id"]))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/api/posts/?cursor=cD0y")
        // Its `count`, beside `next`, is the collection's size: a pass that stores fewer says so.
        #expect(detected.total == JSONPath(["count"]))
        #expect(try detected.read(first).link.statedTotal == 5)
    }

    @Test func githubLinkOverABareArray() throws {
        let first = try page("http://x.test/repos?per_page=2", two, link: #"<http://x.test/repos?per_page=2&page=2>; rel="next", <http://x.test/repos?per_page=2&page=3>; rel="last""#)
        let detected = try plan(first)
        #expect(detected.style == .link && detected.items.isRoot && detected.sizeParameter == "per_page")
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/repos?per_page=2&page=2")
        let last = try page("http://x.test/repos?per_page=2&page=3", two, link: #"<http://x.test/repos?per_page=2&page=1>; rel="first""#)
        #expect(try detected.read(last).link.endReason == "no Link rel=\"next\"")
    }

    @Test func aRelativeLinkTargetIsDetectedAndResolvedAgainstThePage() throws {
        let first = try page("http://x.test/api/things", #"{"data": \#(two)}"#, link: #"</api/things?after=c2>; rel="next""#)
        let detected = try plan(first)
        #expect(detected.style == .link && detected.items == JSONPath(["data"]))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/api/things?after=c2")
    }

    /// A `rel="next"` whose target is no http(s) URL is an unusable page, not the end of the
    /// listing: skipped, it made a sync of one page say it was complete (exit 0).
    @Test(arguments: ["<http://[::1>; rel=\"next\"", "<javascript:alert(1)>; rel=\"next\"", "<ftp://x.test/things>; rel=next"])
    func aNextLinkThatIsNoHTTPURLIsRefused(link: String) throws {
        let first = try page("http://x.test/things", two, link: link)
        let detected = try plan(first)
        #expect(detected.style == .link)
        #expect(throws: PageError.self) { try detected.read(first) }
        do {
            _ = try detected.read(first)
        } catch {
            #expect("\(error)".hasPrefix("the Link field's rel=\"next\" should name the next page's URL but names <"))
        }
    }

    @Test func stripeHasMoreWithStartingAfter() throws {
        let first = try page("http://x.test/v1/customers?limit=2", #"{"object": "list", "url": "/v1/customers", "has_more": true, "data": [{"id": "cus_a"}, {"id": "cus_b"}]}"#)
        let detected = try plan(first)
        #expect(detected.style == .hasMore(flag: JSONPath(["has_more"]), parameter: "starting_after"))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/v1/customers?limit=2&starting_after=cus_b")
        let last = try page("http://x.test/v1/customers?limit=2&starting_after=cus_b", #"{"has_more": false, "data": [{"id": "cus_c"}]}"#)
        #expect(try detected.read(last).link.endReason == "'has_more' is false")
    }

    @Test func slackCursorInResponseMetadata() throws {
        let first = try page("http://x.test/users.list", #"{"ok": true, "members": [{"id": "U1"}], "response_metadata": {"next_cursor": "dXNlcjpV"}}"#)
        let detected = try plan(first)
        #expect(detected.style == .cursor(path: JSONPath(["response_metadata", "next_cursor"]), parameter: "cursor", hasMore: nil))
        #expect(detected.items == JSONPath(["members"]))
        #expect(try detected.read(first).link.next.map { QueryItems.value(of: "cursor", in: $0) } == "dXNlcjpV")
        let last = try page("http://x.test/users.list?cursor=dXNlcjpV", #"{"ok": true, "members": [{"id": "U2"}], "response_metadata": {"next_cursor": ""}}"#)
        #expect(try detected.read(last).link.next == nil)
    }

    @Test func googleNextPageToken() throws {
        let first = try page("http://x.test/v1/items", #"{"kind": "list", "items": [{"id": "a"}], "nextPageToken": "tok2"}"#)
        let detected = try plan(first)
        #expect(detected.style == .cursor(path: JSONPath(["nextPageToken"]), parameter: "pageToken", hasMore: nil))
        let last = try page("http://x.test/v1/items?pageToken=tok2", #"{"kind": "list", "items": [{"id": "b"}]}"#)
        #expect(try detected.read(last).link.endReason == "'nextPageToken' is absent")
    }

    @Test func jsonAPILinksNextRelative() throws {
        let first = try page("http://x.test/articles", #"{"data": [{"id": "1", "type": "articles"}], "links": {"self": "/articles", "next": "/articles?page%5Bnumber%5D=2"}}"#)
        let detected = try plan(first)
        #expect(detected.style == .nextURL(path: JSONPath(["links", "next"])))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/articles?page%5Bnumber%5D=2")
    }

    @Test func halEmbeddedItemsAndLinkObjects() throws {
        let first = try page("http://x.test/orders", #"{"_links": {"self": {"href": "/orders"}, "next": {"href": "/orders?page=2"}}, "_embedded": {"orders": [{"id": 7}]}, "total": 30}"#)
        let detected = try plan(first)
        #expect(detected.style == .nextURL(path: JSONPath(["_links", "next"])))
        #expect(detected.items == JSONPath(["_embedded", "orders"]))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/orders?page=2")
    }

    @Test func odataNextLink() throws {
        let first = try page("http://x.test/People", #"{"@odata.context": "x", "value": [{"UserName": "ann"}], "@odata.nextLink": "http://x.test/People?$skiptoken=8"}"#)
        let detected = try plan(first, .init(key: JSONPath(["UserName"])))
        #expect(detected.style == .nextURL(path: JSONPath(["@odata.nextLink"])))
        #expect(detected.items == JSONPath(["value"]))
    }

    @Test func facebookPrefersTheNextURLOverTheCursors() throws {
        let first = try page("http://x.test/me/feed", #"{"data": [{"id": "1_2"}], "paging": {"cursors": {"before": "QVFI", "after": "QVFJ"}, "next": "http://x.test/me/feed?after=QVFJ"}}"#)
        #expect(try plan(first).style == .nextURL(path: JSONPath(["paging", "next"])))
    }

    @Test func laravelNextPageURL() throws {
        let first = try page("http://x.test/users", #"{"current_page": 1, "data": \#(two), "last_page": 4, "next_page_url": "http://x.test/users?page=2", "total": 8}"#)
        #expect(try plan(first).style == .nextURL(path: JSONPath(["next_page_url"])))
    }

    @Test func offsetWithTotal() throws {
        let first = try page("http://x.test/feed?limit=2", #"{"items": \#(two), "total": 5, "offset": 0, "limit": 2}"#)
        let detected = try plan(first)
        #expect(detected.style == .offset(parameter: "offset", total: JSONPath(["total"])))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/feed?limit=2&offset=2")
        let last = try page("http://x.test/feed?limit=2&offset=4", #"{"items": [{"id": 5}], "total": 5, "offset": 4, "limit": 2}"#)
        #expect(try detected.read(last).link.endReason == "offset 4 + 1 items reached the total of 5")
    }

    @Test func aStatedTotalWinsOverAShortPageAndAnEmptyPageBeforeItIsAnError() throws {
        let first = try page("http://x.test/feed?limit=10", #"{"items": \#(two), "total": 5, "offset": 0}"#)
        let detected = try plan(first)
        let reading = try detected.read(first)
        #expect(reading.link.next?.absoluteString == "http://x.test/feed?limit=10&offset=2" && reading.link.totalSaysMore)
        let empty = try page("http://x.test/feed?limit=10&offset=2", #"{"items": [], "total": 5, "offset": 2}"#)
        #expect(throws: PageError.endsBeforeTotal("the page at offset 2 is empty, but the total is 5 items")) { try detected.read(empty) }
        let movies = try plan(try page("http://x.test/movies", #"{"page": 1, "results": \#(two), "total_pages": 3}"#))
        let emptyPage = try page("http://x.test/movies?page=2", #"{"page": 2, "results": [], "total_pages": 3}"#)
        #expect(throws: PageError.endsBeforeTotal("page 2 is empty, but there are 3 pages")) { try movies.read(emptyPage) }
    }

    @Test func keysThatAreCanonicallyEquivalentButDifferentBytesAreTwoKeys() throws {
        let first = try page("http://x.test/tags", #"[{"slug": "caf\u00e9"}, {"slug": "cafe\u0301"}]"#)
        let reading = try plan(first, .init(key: JSONPath(["slug"]))).read(first)
        #expect(reading.items.keys.count == 2 && reading.items.keys[0] != reading.items.keys[1])
    }

    @Test func offsetWithoutTotalEndsAtAShortPage() throws {
        let first = try page("http://x.test/log?skip=0&take=2", two)
        let detected = try plan(first, .init(paginate: try PaginateSpec(parsing: "offset:size=take")))
        #expect(detected.style == .offset(parameter: "skip", total: nil) && detected.sizeParameter == "take")
        let short = try page("http://x.test/log?skip=2&take=2", #"[{"id": 3}]"#)
        #expect(try detected.read(short, typicalSize: 2).link.endReason == "a short page (1 of 2 items)")
        // A first page short of the size asked is no end: a server may cap its pages (1 sent
        // for 2 asked); the next page, empty at the end, says whether there is more.
        let capped = try page("http://x.test/log?skip=0&take=2", #"[{"id": 1}]"#)
        #expect(try detected.read(capped).link.next?.absoluteString == "http://x.test/log?skip=1&take=2")
        #expect(try detected.read(try page("http://x.test/log?skip=1&take=2", #"[{"id": 2}]"#), typicalSize: 1).link.next != nil)
        let empty = try page("http://x.test/log?skip=2&take=2", "[]")
        #expect(try detected.read(empty).link.endReason == "an empty page")
    }

    @Test func pageNumbersWithTotalPages() throws {
        let first = try page("http://x.test/movies", #"{"page": 1, "results": \#(two), "total_pages": 2, "total_results": 4}"#)
        let detected = try plan(first)
        #expect(detected.style == .page(parameter: "page", start: 1, totalPages: JSONPath(["total_pages"]), total: JSONPath(["total_results"])))
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/movies?page=2")
        let last = try page("http://x.test/movies?page=2", #"{"page": 2, "results": \#(two), "total_pages": 2}"#)
        #expect(try detected.read(last).link.endReason == "page 2 is the last of 2")
    }

    /// json-server 1.0's `_page` with `_per_page`: its `"next": 2` is the next page's number (the
    /// URL names the page), not a cursor, which the server would refuse as an unknown parameter.
    @Test func jsonServersNextPageNumberIsNoCursor() throws {
        let body = #"{"first": 1, "prev": null, "next": 2, "last": 2, "pages": 2, "items": 4, "data": \#(two)}"#
        let first = try page("http://x.test/books?_page=1&_per_page=2", body)
        let detected = try plan(first)
        #expect(detected.style == .page(parameter: "_page", start: 1, totalPages: JSONPath(["pages"]), total: nil))
        #expect(detected.items == JSONPath(["data"]) && detected.sizeParameter == "_per_page")
        #expect(try detected.read(first).link.next?.absoluteString == "http://x.test/books?_page=2&_per_page=2")
        // A listing that fits one page says `"next": null`: still numbered pages, so it grows as one.
        let single = try plan(try page("http://x.test/books?_page=1&_per_page=10",
                                       #"{"first": 1, "prev": null, "next": null, "last": 1, "pages": 1, "items": 2, "data": \#(two)}"#))
        #expect(single.style == .page(parameter: "_page", start: 1, totalPages: JSONPath(["pages"]), total: nil))
        // Without the page in the URL, a number stays a cursor, as before.
        let cursor = try plan(try page("http://x.test/books", #"{"next": 2, "data": \#(two)}"#))
        #expect(cursor.style == .cursor(path: JSONPath(["next"]), parameter: "cursor", hasMore: nil))
    }

    @Test func pageNumbersFromTheURLEndAtA404() throws {
        let detected = try plan(try page("http://x.test/a?page=1&per_page=2", two))
        #expect(detected.style == .page(parameter: "page", start: 1, totalPages: nil, total: nil))
        #expect(detected.endsCollection(status: 404, pageIndex: 3))
        #expect(!detected.endsCollection(status: 404, pageIndex: 0))
        #expect(!detected.endsCollection(status: 500, pageIndex: 3))
    }

    @Test func xTotalCountEndsAPagedArray() throws {
        let first = try page("http://x.test/a?_page=1&_limit=2", two, totalCount: "4")
        let detected = try plan(first)
        #expect(detected.style == .page(parameter: "_page", start: 1, totalPages: nil, total: nil) && detected.sizeParameter == "_limit")
        let second = try page("http://x.test/a?_page=2&_limit=2", two, totalCount: "4")
        #expect(try detected.read(second).link.endReason == "page 2 reached the total of 4 items")
    }

    @Test func aBareArrayAskedForWithAPageSizeIsPaged() throws {
        let pages = try plan(try page("http://x.test/items?per_page=2", two))
        #expect(pages.style == .page(parameter: "page", start: 1, totalPages: nil, total: nil))
        #expect(try pages.read(try page("http://x.test/items?per_page=2", two)).link.next?.absoluteString == "http://x.test/items?per_page=2&page=2")
        #expect(try pages.read(try page("http://x.test/items?per_page=2&page=3", #"[{"id": 5}]"#), typicalSize: 2).link.endReason
            == "a short page (1 of 2 items)")
        #expect(try plan(try page("http://x.test/items?limit=2", two)).style == .offset(parameter: "offset", total: nil))
        #expect(try plan(try page("http://x.test/items?take=2", two)).style == .offset(parameter: "skip", total: nil))
    }

    @Test func aDocumentHoldingAnArrayIsOnePage() throws {
        let exercises = try page("http://x.test/exercises", #"{"version": 1, "exercises": [{"id": 1, "name": "squat"}]}"#)
        let detected = try plan(exercises)
        #expect(detected.style == .single && detected.items == JSONPath(["exercises"]))
        #expect(try detected.read(exercises).link.endReason == "a single document")
        #expect(try plan(try page("http://x.test/tags", two)).style == .single)
    }

    @Test func elasticsearchHitsWithUnderscoreIDs() throws {
        let detected = try plan(try page("http://x.test/_search", #"{"took": 3, "hits": {"total": {"value": 1}, "hits": [{"_id": "a", "_source": {}}]}}"#))
        #expect(detected.items == JSONPath(["hits", "hits"]) && detected.key == JSONPath(["_id"]))
    }

    @Test func stringKeysAreFoundAmongTheCandidates() throws {
        let detected = try plan(try page("http://x.test/u", #"[{"uuid": "9f1c", "name": "a"}, {"uuid": "77aa", "name": "a"}]"#))
        #expect(detected.key == JSONPath(["uuid"]))
    }
}
