import Foundation
import HTTPCache
import Testing

@Suite("HTTP dates and entity tags")
struct HTTPDateTests {
    let reference = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func parsesAllThreeFormats() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == reference)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == reference)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == reference)
    }

    @Test func formatsIMFFixdate() {
        #expect(HTTPDate.format(reference) == "Sun, 06 Nov 1994 08:49:37 GMT")
        let leapDay = Date(timeIntervalSince1970: 1_709_164_800) // 2024-02-29
        #expect(HTTPDate.format(leapDay) == "Thu, 29 Feb 2024 00:00:00 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(leapDay)) == leapDay)
    }

    @Test(arguments: ["0", "-1", "yesterday", "", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT"])
    func rejectsInvalidDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func parsesEntityTags() {
        #expect(EntityTag(#""abc""#) == EntityTag(opaqueTag: "abc"))
        #expect(EntityTag(#"W/"abc""#) == EntityTag(opaqueTag: "abc", isWeak: true))
        #expect(EntityTag("abc") == nil)
        #expect(EntityTag(#""a"b""#) == nil)
    }

    @Test func weakComparisonIgnoresWeaknessStrongDoesNot() {
        let strong = EntityTag(opaqueTag: "v1")
        let weak = EntityTag(opaqueTag: "v1", isWeak: true)
        #expect(strong.weaklyMatches(weak))
        #expect(!strong.stronglyMatches(weak))
        #expect(strong.stronglyMatches(strong))
    }

    @Test func parsesConditionalLists() {
        let list = EntityTag.parseList(#""a", W/"b", junk, "c,d""#)
        #expect(list == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true), EntityTag(opaqueTag: "c,d")]))
        #expect(list.weaklyMatches(EntityTag(opaqueTag: "b")))
        #expect(!list.weaklyMatches(EntityTag(opaqueTag: "z")))
        #expect(EntityTag.parseList(" * ").weaklyMatches(EntityTag(opaqueTag: "anything")))
    }
}
