@testable import TerminalText
import Testing

@Suite("Sanitising remote text")
struct SafeTextTests {
    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect(TerminalText.sanitized("ok\u{1B}[2Jgone\u{07}") == "ok\\u{1b}[2Jgone\\u{7}")
        #expect(TerminalText.sanitized("한글 emoji 🎉\tok") == "한글 emoji 🎉\tok")
        #expect(TerminalText.sanitized("line\nbreak\r") == "line\\u{a}break\\u{d}")
        #expect(TerminalText.sanitized("a\r\nb\nc\rd\u{1B}]0;title\u{7}", keepingLineBreaks: true)
                == "a\r\nb\nc\\u{d}d\\u{1b}]0;title\\u{7}")
    }

    /// The control characters are found by their range, not a property lookup: the same set as
    /// general category Cc, over every scalar.
    @Test func theControlCharactersAreExactlyCategoryCc() {
        let scalars = (0...0x10FFFF).lazy.compactMap(Unicode.Scalar.init(_:) as (UInt32) -> Unicode.Scalar?)
        #expect(!scalars.contains { TerminalText.isControl($0) != ($0.properties.generalCategory == .control) })
    }

    /// Text with nothing to change comes back as it is; one thing to change rebuilds it.
    @Test func textWithNothingToChangeIsReturnedAsItIs() {
        for text in ["plain ASCII title", "한글 제목 🚀 with ASCII", ""] {
            #expect(TerminalText.sanitized(text) == text)
            #expect(SafeText.line(text, width: cells) == text)
        }
        #expect(SafeText.line("👩\u{200D}💻 and\ttab", width: cells) == "👩💻 and tab")
    }

    /// ASCII is measured without `wcwidth`: one cell each.
    @Test func printableASCIIIsOneCellAsWcwidthSays() {
        let printable = (0x20..<0x7F).map { String(Unicode.Scalar(UInt8($0))) }
        #expect(printable.allSatisfy { cells.cells($0) == 1 })
        #expect(DisplayWidth.spaces(3) == "   " && DisplayWidth.spaces(0).isEmpty && DisplayWidth.spaces(-2).isEmpty)
    }

    @Test func escapeSequencesBecomeVisibleText() {
        let line = SafeText.line("evil\u{1B}[2J\u{1B}]0;pwned\u{7}title", width: cells)
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(line.contains("\\u{1b}[2J"))
        #expect(line.contains("\\u{7}"))
    }

    @Test func tabsBecomeSpaces() {
        #expect(SafeText.line("a\tb", width: cells) == "a b")
    }

    @Test func lineBreaksInATitleAreShownNotFollowed() {
        #expect(SafeText.line("one\ntwo", width: cells) == "one\\u{a}two")
    }

    /// U+2028 and U+2029 are line breaks too: shown as escapes in a title (not as "�"), and in
    /// a body printed on a terminal, where they would not break the line.
    @Test func unicodeLineAndParagraphSeparatorsAreShownAsEscapes() {
        #expect(SafeText.line("one\u{2028}two\u{2029}", width: cells) == "one\\u{2028}two\\u{2029}")
        #expect(TerminalText.sanitized("a\u{2028}b\n", keepingLineBreaks: true) == "a\\u{2028}b\n")
    }

    /// What reaches a terminal from the network (-i and -v lines, errors): C0 and C1 controls
    /// (U+009B is the 8-bit CSI) and bidi overrides become visible escapes; tabs stay.
    @Test func c0C1AndBidiControlsAreEscaped() {
        #expect(TerminalText.sanitized("a\u{1B}[31m\u{9B}31m\u{85}b\u{202E}c\u{2066}\td") == "a\\u{1b}[31m\\u{9b}31m\\u{85}b\\u{202e}c\\u{2066}\td")
    }

    @Test func bodiesSplitAtEveryKindOfLineBreak() {
        #expect(SafeText.lines("a\nb\r\nc\rd\u{2028}e\n\nf", width: cells) == ["a", "b", "c", "d", "e", "", "f"])
    }

    @Test func unmeasurableScalarsBecomeReplacementCharacters() {
        let width = DisplayWidth { $0 == "x" ? -1 : 1 }
        #expect(SafeText.line("axb", width: width) == "a\u{FFFD}b")
    }

    @Test func emojiJoinersAndPresentationSelectorsAreDropped() {
        #expect(SafeText.line("👩\u{200D}💻 🌧\u{FE0F}", width: cells) == "👩💻 🌧")
    }

    @Test func koreanAndEmojiPassThrough() {
        #expect(SafeText.line("캐시 이야기 🚀", width: cells) == "캐시 이야기 🚀")
    }

    @Test func bidiOverridesAndIsolatesAreEscapedLikeControlCharacters() {
        let line = SafeText.line("abc\u{202E}fed\u{2066}x\u{2069}", width: cells)
        #expect(line == "abc\\u{202e}fed\\u{2066}x\\u{2069}")
    }

    @Test func fittingKeepsAnEscapeWholeOrLeavesItOut() {
        let line = SafeText.line("ab\u{1B}[31m", width: cells)
        #expect(SafeText.fitted(line, to: 9, measure: cells) == "ab\\u{1b}…")
        #expect(SafeText.fitted(line, to: 8, measure: cells) == "ab…     ")
        #expect(SafeText.fitted(line, to: 6, measure: cells) == "ab…   ")
    }

    @Test func fittingAtWordCutsBetweenWords() {
        #expect(SafeText.fitted("offline, showing stored items", to: 20, measure: cells, atWord: true) == "offline, showing…   ")
    }
}
