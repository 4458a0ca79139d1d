import HTTPFields
import Testing

@Suite("Lists, directives and quoted strings")
struct FieldListTests {
    @Test func splitsAtCommasOutsideQuotes() {
        #expect(FieldList.elements(#"a, "b,c" ,, d"#) == ["a", #""b,c""#, "d"])
        #expect(FieldList.elements(["gzip", " br , zstd"]) == ["gzip", "br", "zstd"])
        #expect(FieldList.elements("  ").isEmpty)
    }

    @Test func firstElementOfASingletonSentAsAList() {
        #expect(FieldList.first(["7200, 0"]) == "7200")
        #expect(FieldList.first([", 5"]) == "5")
        #expect(FieldList.first([]) == nil)
    }

    @Test func containsComparesTokensCaseInsensitively() {
        #expect(FieldList.contains("*", in: ["accept, *"]))
        #expect(FieldList.contains("keep-alive", in: ["Keep-Alive, Upgrade"]))
        #expect(!FieldList.contains("*", in: [#""*""#]))
    }

    @Test func readsDirectives() {
        let directives = FieldDirectives.parse(#"Max-Age=60, private="a, b", no-cache , ext="q\"x", bad name=1, =3"#)
        #expect(directives.map(\.name) == ["max-age", "private", "no-cache", "ext"])
        #expect(directives.map(\.value) == ["60", "a, b", nil, #"q"x"#])
    }

    @Test func trimsOnlySpacesAndTabs() {
        #expect(" \ta b\t ".trimmingWhitespace() == "a b")
        #expect("\na\n".trimmingWhitespace() == "\na\n")
    }
}
