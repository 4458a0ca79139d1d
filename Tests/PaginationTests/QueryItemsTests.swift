import Foundation
import Pagination
import Testing

/// Setting one query parameter of a page URL (the next page's cursor, offset or number).
@Suite("Query parameters of page URLs")
struct QueryItemsTests {
    /// The user's other parameters reach the server as they were written: a `+` that means a
    /// space in a search stays a `+`, and escapes stay escapes.
    @Test func theOtherParametersStayAsWritten() throws {
        let url = try #require(URL(string: "http://h.test/search?q=a+b&x=%41%20c&page=1"))
        #expect(QueryItems.setting("page", to: "2", in: url).absoluteString == "http://h.test/search?q=a+b&x=%41%20c&page=2")
        #expect(QueryItems.setting("cursor", to: "7", in: url).absoluteString == "http://h.test/search?q=a+b&x=%41%20c&page=1&cursor=7")
        #expect(QueryItems.setting("page", to: nil, in: url).absoluteString == "http://h.test/search?q=a+b&x=%41%20c")
    }

    /// The value set is escaped where a server would read it otherwise: `+` as a space, `&` and
    /// `=` as separators, a space, non-ASCII.
    @Test func theValueSetIsEscaped() throws {
        let url = try #require(URL(string: "http://h.test/posts?limit=5"))
        let next = QueryItems.setting("cursor", to: "a+b/c=d&e f é", in: url)
        #expect(QueryItems.value(of: "cursor", in: next) == "a+b/c=d&e f é")
        #expect(next.absoluteString.hasPrefix("http://h.test/posts?limit=5&cursor=a%2Bb/c"))
        #expect(!next.absoluteString.contains(" ") && !next.absoluteString.contains("&e") && !next.absoluteString.contains("+"))
        // Characters a query item may hold as they are stay as they are.
        let plain = "a-b_c.d~e/f?g:h@i!j$k'l(m)n*o,p;q9Z"
        #expect(QueryItems.setting("cursor", to: plain, in: url).absoluteString == "http://h.test/posts?limit=5&cursor=\(plain)")
    }

    /// A parameter given twice keeps its first place and loses the second.
    @Test func aRepeatedParameterIsSetOnce() throws {
        let url = try #require(URL(string: "http://h.test/x?page=1&a=b&page=3"))
        #expect(QueryItems.setting("page", to: "2", in: url).absoluteString == "http://h.test/x?page=2&a=b")
    }
}
