import Testing
@testable import FreshReader

@Suite("Text scroll")
struct TextScrollTests {
    @Test func scrollsWithinTheText() {
        var scroll = TextScroll(lineCount: 25, height: 10)
        scroll.scroll(by: 3)
        #expect(scroll.visibleRange == 3..<13)
        scroll.scroll(by: 100)
        #expect(scroll.offset == 15)
        scroll.scroll(by: -100)
        #expect(scroll.offset == 0)
    }

    @Test func shortTextDoesNotScroll() {
        var scroll = TextScroll(lineCount: 4, height: 10)
        scroll.scrollToBottom()
        #expect(scroll.offset == 0)
        #expect(scroll.visibleRange == 0..<4)
    }
}
