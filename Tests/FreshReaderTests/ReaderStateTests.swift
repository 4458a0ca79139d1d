import Fetcher
import Foundation
import Models
import Testing
@testable import FreshReader

@Suite("Reader state machine")
struct ReaderStateTests {
    let size = ScreenSize(rows: 12, columns: 40)

    func reader(_ stored: [Post]) -> ReaderState {
        ReaderState(posts: stored, size: size, measure: cells, timeZone: utc)
    }

    @Test func jAndKMoveTheSelection() {
        var state = reader(posts(5))
        #expect(state.handle(.down) == .none)
        #expect(state.handle(.down) == .none)
        #expect(state.handle(.up) == .none)
        #expect(state.selectedPost?.id == 2)
    }

    @Test func enterOpensTheSelectedPostAndQGoesBack() {
        var state = reader(posts(5))
        _ = state.handle(.down)
        _ = state.handle(.open)
        #expect(state.mode == .post(id: 2))
        #expect(state.postLines.first?.text == " Post 2")
        #expect(state.handle(.back) == .none)
        #expect(state.mode == .list)
        #expect(state.selectedPost?.id == 2)
    }

    @Test func qInTheListQuits() {
        var state = reader(posts(2))
        #expect(state.handle(.back) == .quit)
    }

    @Test func rAsksForARefreshInBothModes() {
        var state = reader(posts(2))
        #expect(state.handle(.refresh) == .refresh)
        _ = state.handle(.open)
        #expect(state.handle(.refresh) == .refresh)
        #expect(state.mode == .post(id: 1))
    }

    @Test func enterOnAnEmptyListDoesNothing() {
        var state = reader([])
        #expect(state.handle(.open) == .none)
        #expect(state.mode == .list)
    }

    @Test func jAndKScrollAnOpenPost() {
        let long = post(1, body: (1...40).map { "paragraph \($0)" }.joined(separator: "\n"))
        var state = reader([long])
        _ = state.handle(.open)
        _ = state.handle(.down)
        _ = state.handle(.down)
        #expect(state.postScroll.offset == 2)
        #expect(state.list.selected == 0)
        _ = state.handle(.last)
        #expect(state.postScroll.offset == state.postLines.count - 11)
        _ = state.handle(.first)
        #expect(state.postScroll.offset == 0)
    }

    @Test func postBodyWrapsWithinTheScreenWidth() {
        let korean = post(1, body: String(repeating: "네트워크가 끊겨도 읽을 수 있어요. ", count: 10))
        var state = reader([korean])
        _ = state.handle(.open)
        #expect(state.postLines.count > 5)
        #expect(state.postLines.allSatisfy { cells.cells($0.text) <= 40 })
    }

    @Test func newPostsKeepTheSelectionOnTheSamePost() {
        var state = reader([post(2), post(3), post(4)])
        _ = state.handle(.down)
        state.showPosts([post(1), post(2), post(3), post(4)])
        #expect(state.selectedPost?.id == 3)
    }

    @Test func anOpenPostThatDisappearsCloses() {
        var state = reader([post(1), post(2)])
        _ = state.handle(.open)
        state.showPosts([post(2)])
        #expect(state.mode == .list)
    }

    @Test func anOpenPostFollowsItsChanges() {
        var state = reader([post(1, title: "Old")])
        _ = state.handle(.open)
        state.showPosts([post(1, title: "New")])
        #expect(state.postLines.first?.text == " New")
    }

    @Test func fetchStatesUpdateStatusAndPosts() {
        var state = reader([post(1)])
        state.apply(FetchState(value: nil, status: .loading))
        #expect(state.status == .loading)
        #expect(state.posts.count == 1)
        state.apply(FetchState(value: posts(3), status: .refreshed(Date(timeIntervalSince1970: 0))))
        #expect(state.posts.count == 3)
    }

    @Test func resizeReflowsTheOpenPost() {
        let body = String(repeating: "word ", count: 60)
        var state = reader([post(1, body: body)])
        _ = state.handle(.open)
        let narrow = state.postLines.count
        state.resize(to: ScreenSize(rows: 12, columns: 100))
        #expect(state.postLines.count < narrow)
        #expect(state.postLines.allSatisfy { cells.cells($0.text) <= 100 })
    }

    @Test func resizeKeepsTheSelectionVisible() {
        var state = reader(posts(50))
        _ = state.handle(.last)
        state.resize(to: ScreenSize(rows: 5, columns: 40))
        #expect(state.list.visibleRange.contains(state.list.selected))
    }
}
