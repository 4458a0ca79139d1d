import HTTPFields
import Testing

@Suite("Entity tags")
struct EntityTagTests {
    @Test func parsesStrongAndWeakTags() {
        #expect(EntityTag(#""abc""#) == EntityTag(opaqueTag: "abc"))
        #expect(EntityTag(#" W/"abc" "#) == EntityTag(opaqueTag: "abc", isWeak: true))
        #expect(EntityTag(#""""#) == EntityTag(opaqueTag: ""))
    }

    @Test(arguments: ["abc", #""a"b""#, #"w/"abc""#, #""a b""#, "\"a\u{1}\"", #"""#])
    func refusesWhatIsNotAnEntityTag(_ text: String) {
        #expect(EntityTag(text) == nil)
    }

    @Test func readsUnquotedTagsLeniently() {
        #expect(EntityTag.lenient("abc") == EntityTag(opaqueTag: "abc"))
        #expect(EntityTag.lenient("W/abc") == EntityTag(opaqueTag: "abc", isWeak: true))
        #expect(EntityTag.lenient(#" "abc" "#) == EntityTag(opaqueTag: "abc"))
        #expect(EntityTag.lenient("a b") == nil)
        #expect(EntityTag.lenient("") == nil)
    }

    @Test func formatsTheFieldForm() {
        #expect(EntityTag(opaqueTag: "v1").description == #""v1""#)
        #expect(EntityTag(opaqueTag: "v1", isWeak: true).description == #"W/"v1""#)
    }

    @Test func weakComparisonIgnoresWeaknessStrongDoesNot() {
        let strong = EntityTag(opaqueTag: "v1")
        let weak = EntityTag(opaqueTag: "v1", isWeak: true)
        #expect(strong.weaklyMatches(weak))
        #expect(!strong.stronglyMatches(weak))
        #expect(strong.stronglyMatches(strong))
    }

    @Test func parsesListsLenientlyOrStrictly() {
        let lenient = EntityTagList.lenient(#""a", W/"b", junk, "c,d""#)
        #expect(lenient == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true), EntityTag(opaqueTag: "c,d")]))
        #expect(lenient.weaklyMatches(EntityTag(opaqueTag: "b")))
        #expect(!lenient.weaklyMatches(EntityTag(opaqueTag: "z")))
        #expect(EntityTagList(fieldValue: #""a", junk"#) == nil)
        #expect(EntityTagList(fieldValue: "") == nil)
        #expect(EntityTagList(fieldValue: #" "a" , W/"b""#) == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true)]))
    }

    @Test func starMatchesAnyCurrentRepresentation() {
        let any = EntityTagList(fieldValue: " * ")
        #expect(any == .any)
        #expect(any?.weaklyMatches(EntityTag(opaqueTag: "anything")) == true)
        #expect(any?.stronglyMatches(nil) == false)
    }

    @Test func strongListMatchingRefusesWeakTags() {
        let list = EntityTagList.tags([EntityTag(opaqueTag: "x", isWeak: true)])
        #expect(!list.stronglyMatches(EntityTag(opaqueTag: "x")))
        #expect(list.weaklyMatches(EntityTag(opaqueTag: "x")))
    }
}
