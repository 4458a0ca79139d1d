import Foundation
import JSON
import Pagination
import Testing

@Suite("Pages that move")
struct PositionalPagesTests {
    private func plan(_ style: PaginationStyle) -> PaginationPlan {
        PaginationPlan(style: style, items: JSONPath([]), key: JSONPath(["id"]), sizeParameter: nil)
    }

    @Test func pageNumbersAndOffsetsMoveCursorsAndKeysetsDoNot() {
        let url = URL(string: "http://o.test/items?after=abc")!
        #expect(plan(.offset(parameter: "skip", total: nil)).mayMove(at: url))
        #expect(plan(.page(parameter: "page", start: 1, totalPages: nil, total: nil)).mayMove(at: url))
        #expect(!plan(.cursor(path: JSONPath(["next"]), parameter: "cursor", hasMore: nil)).mayMove(at: url))
        #expect(!plan(.after(parameter: "after", member: nil)).mayMove(at: url))
    }

    @Test func aLinkMovesWhenItsURLCarriesAPositionByNumber() {
        let link = plan(.link)
        #expect(link.mayMove(at: URL(string: "https://api.github.test/repos?page=2&per_page=30")!))
        #expect(link.mayMove(at: URL(string: "https://api.test/news?offset=40&limit=20")!))
        #expect(!link.mayMove(at: URL(string: "https://api.test/users?since=12345")!))
        #expect(!link.mayMove(at: URL(string: "https://api.test/news?page=abc")!))
        #expect(!plan(.nextURL(path: JSONPath(["next"]))).mayMove(at: URL(string: "https://api.test/x?cursor=9")!))
    }
}
