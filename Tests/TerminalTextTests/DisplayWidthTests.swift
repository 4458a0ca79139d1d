import TerminalText
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test func asciiTakesOneCellPerCharacter() {
        #expect(cells.cells("Hello") == 5)
    }

    @Test func hangulSyllablesTakeTwoCells() {
        #expect(cells.cells("한국어") == 6)
        #expect("한국어".count == 3)
    }

    @Test func emojiTakeTwoCellsAndCombiningMarksNone() {
        #expect(cells.cells("😀") == 2)
        #expect(cells.cells("🚀 go") == 5)
        #expect(cells.cells("e\u{301}") == 1)
    }

    @Test func mixedTextAddsUp() {
        #expect(cells.cells("캐시 cache 💾") == 4 + 1 + 5 + 1 + 2)
    }

    @Test func textThatFitsIsNotTruncated() {
        #expect(cells.truncated("서울", to: 4) == "서울")
        #expect(cells.truncated("abc", to: 10) == "abc")
    }

    @Test func truncationEndsInAnEllipsisWithinTheWidth() {
        let cut = cells.truncated("Surviving a flaky network", to: 10)
        #expect(cut == "Surviving…")
        #expect(cells.cells(cut) == 10)
    }

    @Test func truncationNeverSplitsAWideCharacter() {
        // 4 cells: "한" (2) + "…" (1) fits 3, and the next syllable would need 2 more.
        let cut = cells.truncated("한국어", to: 4)
        #expect(cut == "한…")
        #expect(cells.cells(cut) == 3)
    }

    @Test func truncationToNothing() {
        #expect(cells.truncated("abc", to: 0) == "")
        #expect(cells.truncated("abc", to: 1) == "…")
    }

    @Test(arguments: ["한국어 제목입니다", "ASCII title here", "🚀 로켓 launch ✅", "e\u{301}tude"])
    func fittedTextIsExactlyTheColumnWidth(text: String) {
        for width in 0...20 {
            #expect(cells.cells(cells.fitted(text, to: width)) == width, "width \(width)")
        }
    }

    @Test func fittingPadsOnTheRightOrTheLeft() {
        #expect(cells.fitted("김", to: 4) == "김  ")
        #expect(cells.fitted("42", to: 4, alignment: .trailing) == "  42")
    }

    @Test func wideCharacterThatCannotFitLeavesPadding() {
        #expect(cells.fitted("가나다", to: 4) == "가… ")
    }
}

/// The real `wcwidth`, measured under a UTF-8 locale switched on once for the whole run
/// (global initialisers run exactly once, so parallel tests never race on `setlocale`).
let cells: DisplayWidth = {
    precondition(TerminalLocale.activate(), "the tests need a UTF-8 locale (C.UTF-8)")
    return .system
}()
