import Foundation
import HTTPFields
import Testing

@Suite("Link (RFC 8288)")
struct LinkFieldTests {
    let base = URL(string: "http://o.test/articles?page=2")!

    @Test func findsTargetsByRelation() {
        let value = #"<http://o.test/articles?page=3>; rel="next", </articles?page=1>; rel="prev first", <http://o.test/articles?page=9>; rel=last"#
        #expect(LinkField.target(of: "next", in: [value], base: base)?.url?.absoluteString == "http://o.test/articles?page=3")
        #expect(LinkField.target(of: "first", in: [value], base: base)?.url?.absoluteString == "http://o.test/articles?page=1")
        #expect(LinkField.target(of: "last", in: [value], base: base)?.url?.absoluteString == "http://o.test/articles?page=9")
        #expect(LinkField.target(of: "NEXT", in: [value], base: base) != nil)
    }

    @Test func keepsCommasInsideTargetsAndQuotedParameters() {
        let links = LinkField.parse([#"<http://o.test/a?x=1,2>; rel="next"; title="a, b", <http://o.test/b>; rel=prev"#])
        #expect(links.map(\.target.absoluteString) == ["http://o.test/a?x=1,2", "http://o.test/b"])
        #expect(links.first?.parameters["title"] == "a, b")
    }

    /// A target that is no URL is no link to follow, but `target(of:)` finds it as written, and
    /// its relation types count: a caller can say the server's next link is unusable.
    @Test func aTargetThatIsNoURLIsFoundAsWritten() {
        let value = #"<http://[::1>; rel="next", <http://o.test/p1>; rel=prev"#
        #expect(LinkField.target(of: "next", in: [value], base: base) == LinkField.WrittenTarget(text: "http://[::1", url: nil))
        #expect(LinkField.parse([value]).map(\.relations) == [["prev"]])
        #expect(LinkField.relations(in: [value]) == ["next", "prev"])
    }

    @Test func skipsMalformedMembersAndKeepsTheFirstRel() {
        #expect(LinkField.parse(["<unterminated; rel=next", "garbage", ""]).isEmpty)
        let links = LinkField.parse([#"junk, <http://o.test/c>; rel="next"; rel="prev""#])
        #expect(links == [WebLink(target: URL(string: "http://o.test/c")!, relations: ["next"])])
    }
}
