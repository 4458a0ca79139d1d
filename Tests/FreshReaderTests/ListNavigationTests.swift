import Testing
@testable import FreshReader

@Suite("List navigation")
struct ListNavigationTests {
    @Test func startsAtTheTop() {
        let list = ListNavigation(count: 50, height: 10)
        #expect(list.selected == 0)
        #expect(list.visibleRange == 0..<10)
    }

    @Test func movingStopsAtBothEnds() {
        var list = ListNavigation(count: 3, height: 10)
        list.move(by: -1)
        #expect(list.selected == 0)
        list.move(by: 5)
        #expect(list.selected == 2)
    }

    @Test func scrollsToKeepTheSelectionVisible() {
        var list = ListNavigation(count: 50, height: 10)
        list.move(by: 10)
        #expect(list.selected == 10)
        #expect(list.visibleRange == 1..<11)
        list.move(by: -5)
        #expect(list.visibleRange == 1..<11)
        list.apply(.first)
        #expect(list.visibleRange == 0..<10)
    }

    @Test func pagesMoveOneScreen() {
        var list = ListNavigation(count: 50, height: 10)
        list.apply(.pageDown)
        #expect(list.selected == 10)
        list.apply(.pageDown)
        list.apply(.pageUp)
        #expect(list.selected == 10)
    }

    @Test func lastShowsTheFinalScreenful() {
        var list = ListNavigation(count: 50, height: 10)
        list.apply(.last)
        #expect(list.selected == 49)
        #expect(list.visibleRange == 40..<50)
    }

    @Test func emptyListHasNothingVisible() {
        var list = ListNavigation(count: 0, height: 10)
        list.move(by: 3)
        list.apply(.last)
        #expect(list.selected == 0)
        #expect(list.visibleRange.isEmpty)
    }

    @Test func shrinkingClampsTheSelectionAndScroll() {
        var list = ListNavigation(count: 50, height: 10)
        list.apply(.last)
        list.reshape(count: 12, height: 10)
        #expect(list.selected == 11)
        #expect(list.visibleRange == 2..<12)
    }

    @Test func tallerScreenShowsMoreWithoutScrollingPastTheEnd() {
        var list = ListNavigation(count: 20, height: 5)
        list.apply(.last)
        list.reshape(count: 20, height: 30)
        #expect(list.visibleRange == 0..<20)
        #expect(list.selected == 19)
    }
}
