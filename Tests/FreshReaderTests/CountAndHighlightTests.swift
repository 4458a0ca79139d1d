import Foundation
import Testing
@testable import FreshReader

@Suite("Reader: counts before keys, and search matches that stand out")
struct CountAndHighlightTests {
    @Test func aCountBeforeGGoesToThatRowAndBeforeJOrKMovesThatMany() throws {
        var state = try reader(MemoryLibrary(count: 100))
        state.press(.character("5"), .character("0"))
        #expect(state.message == "50" && state.list.selected == 0)
        state.press(.character("G"))
        #expect(state.selectedRow?.title == "Item 50" && state.count == nil)
        state.press(.character("5"), .character("j"))
        #expect(state.selectedRow?.title == "Item 55")
        state.press(.character("1"), .character("2"), .character("k"))
        #expect(state.selectedRow?.title == "Item 43")
        state.press(.character("3"), .character("g"))
        #expect(state.selectedRow?.title == "Item 3")
        // A count past the end stops at the last row; 0 alone is no count.
        state.press(.character("9"), .character("9"), .character("9"), .character("G"))
        #expect(state.selectedRow?.title == "Item 100")
        state.press(.character("0"))
        #expect(state.count == nil)
    }

    @Test func aCountScrollsAnOpenItem() throws {
        var state = try reader(MemoryLibrary(count: 3))
        state.press(.character("?"))
        state.press(.character("4"), .character("j"))
        #expect(state.textScroll.offset == 4)
        state.press(.character("2"), .character("G"))
        #expect(state.textScroll.offset == 1)
    }

    @Test func theLastSearchsWordsAreHighlightedInTheList() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("item 2")
        state.press(.enter)
        let lines = ReaderFrame.lines(for: state)
        let row = try #require(lines.first { $0.text.contains("Item 2 ") || $0.text.hasSuffix("Item 2") })
        let highlighted = row.highlights.map { String(String.UnicodeScalarView(Array(row.text.unicodeScalars)[$0])) }
        #expect(highlighted.contains("Item") && highlighted.contains("2"))
        #expect(lines.last?.highlights.isEmpty == true)
    }

    @Test func highlightsFindEveryWordIgnoringCase() {
        #expect(SearchHighlight("etag 304").ranges(in: "An ETag and a 304, then etags") == [3..<7, 14..<17, 24..<28])
        #expect(SearchHighlight("  ").ranges(in: "text").isEmpty)
        #expect(SearchHighlight("서버").ranges(in: "서버가 304를") == [0..<2])
    }
}
