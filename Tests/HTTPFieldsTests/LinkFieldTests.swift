import Foundation
import HTTPFields
import Testing

@Suite("Link (RFC 8288)")
struct LinkFieldTests {
    let base = URL(string: "http://o.test/articles?page=2")!

    @Test func findsTargetsByRelation() {
        let value = #"<http://o.test/articles?page=3>; rel="next", </articles?page=1>; rel="prev first", <http://o.test/articles?page=9>; rel=last"#
        #expect(LinkField.target(of: "next", in: [value], base: base)?.absoluteString == "http://o.test/articles?page=3")
        #expect(LinkField.target(of: "first", in: [value], base: base)?.absoluteString == "http://o.test/articles?page=1")
        #expect(LinkField.target(of: "last", in: [value], base: base)?.absoluteString == "http://o.test/articles?page=9")
        #expect(LinkField.target(of: "NEXT", in: [value], base: base) != nil)
    }

    @Test func keepsCommasInsideTargetsAndQuotedParameters() {
        let links = LinkField.parse([#"<http://o.test/a?x=1,2>; rel="next"; title="a, b", <http://o.test/b>; rel=prev"#])
        #expect(links.map(\.target.absoluteString) == ["http://o.test/a?x=1,2", "http://o.test/b"])
        #expect(links.first?.parameters["title"] == "a, b")
    }

    @Test func skipsMalformedMembersAndKeepsTheFirstRel() {
        #expect(LinkField.parse(["<unterminated; rel=next", "garbage", ""]).isEmpty)
        let links = LinkField.parse([#"junk, <http://o.test/c>; rel="next"; rel="prev""#])
        #expect(links == [WebLink(target: URL(string: "http://o.test/c")!, relations: ["next"])])
    }
}
