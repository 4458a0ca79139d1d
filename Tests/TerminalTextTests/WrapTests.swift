import TerminalText
import Testing

@Suite("Wrapping by display cells")
struct WrapTests {
    @Test func breaksAtSpaces() {
        #expect(cells.wrapped("one two three", to: 7) == ["one two", "three"])
    }

    @Test func countsHangulAsTwoCells() {
        let lines = cells.wrapped("네트워크가 끊겨도 읽을 수 있어요", to: 12)
        #expect(lines == ["네트워크가", "끊겨도 읽을", "수 있어요"])
        #expect(lines.allSatisfy { cells.cells($0) <= 12 })
    }

    @Test func breaksAWordWiderThanTheLine() {
        #expect(cells.wrapped("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(cells.wrapped("가나다라", to: 5) == ["가나", "다라"])
    }

    @Test func emptyLineStaysOneEmptyLine() {
        #expect(cells.wrapped("", to: 10) == [""])
    }

    @Test func spacesAtABreakAreDropped() {
        #expect(cells.wrapped("aaa    bbb", to: 5) == ["aaa", "bbb"])
    }
}
