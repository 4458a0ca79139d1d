import Foundation
import MirrorStore
import Testing
@testable import FreshReader

@Suite("Reader state machine: paging")
struct PagingTests {
    @Test func comingWithinThePrefetchDistanceLoadsTheNextPageOnce() throws {
        var state = try reader(MemoryLibrary(count: 10, hasNextPage: true), prefetch: 3)
        #expect(state.start() == .none)
        #expect(state.press(.down, .down, .down, .down, .down).isEmpty)
        #expect(state.handle(.down) == .loadNextPage(collectionID: 1))
        #expect(state.paging == .loading)
        #expect(state.press(.down, .character("G"), .up, .down).isEmpty)
        #expect(state.screenText.contains { $0.contains("loading the next page…") })
    }

    @Test func leavingAndReopeningACollectionWhosePageLoadsNeverAsksForItAgain() throws {
        let library = MemoryLibrary([MemoryLibrary.collection(id: 1, name: "a", count: 10, hasNextPage: true),
                                     MemoryLibrary.collection(id: 2, name: "b", count: 10, hasNextPage: true)])
        var state = try reader(library)
        #expect(state.mode == .collections)
        #expect(state.press(.enter, .character("G")) == [.loadNextPage(collectionID: 1)])
        // Back to the list and into the same collection while its page is on its way.
        #expect(state.press(.character("q"), .enter, .character("G"), .up, .down).isEmpty)
        #expect(state.paging == .loading)
        // Once that page is stored, the next one (the selection is still at the end).
        #expect(state.pageLoaded(collectionID: 1, failure: nil) == .loadNextPage(collectionID: 1))
    }

    @Test func anArrivedPageIsAppendedAndTheSelectionStays() throws {
        let library = MemoryLibrary(count: 10, hasNextPage: true)
        var state = try reader(library)
        state.press(.character("G"))
        library.append(10, hasNextPage: true)
        #expect(state.pageLoaded(collectionID: 1, failure: nil) == .none)
        #expect(state.paging == .idle)
        #expect(state.itemCount == 20)
        #expect(state.selectedRow?.title == "Item 10")
        #expect(state.screenText.last?.contains("10/20") == true)
    }

    @Test func aFailedPageShowsAnErrorRowAndRRetriesIt() throws {
        var state = try reader(MemoryLibrary(count: 10, hasNextPage: true))
        state.press(.character("G"))
        #expect(state.pageLoaded(collectionID: 1, failure: "cannot reach the server") == .none)
        #expect(state.screenText.contains { $0.contains("the next page failed (R retries): cannot reach the server") })
        #expect(state.press(.up, .down).isEmpty)
        #expect(state.handle(.character("R")) == .loadNextPage(collectionID: 1))
        #expect(state.handle(.character("R")) == .none)
        #expect(state.message == "the next page is on its way")
    }

    @Test func anUntitledItemIsNamedByItsKeyNotItsRowID() throws {
        var stored = MemoryLibrary.collection(id: 1, name: "tags", count: 1)
        stored.rows[0] = ListRow(id: 110, key: #""swift""#, at: ItemPosition(pageIndex: 0, position: 0), title: nil, subtitle: nil)
        let state = try reader(MemoryLibrary([stored]))
        #expect(state.screenText.contains { $0.contains(#"(untitled "swift")"#) })
        #expect(!state.screenText.contains { $0.contains("110") })
    }

    @Test func theEndRowOfOneItemSaysItem() throws {
        var state = try reader(MemoryLibrary(count: 1, hasNextPage: false))
        state.press(.character("G"))
        #expect(state.screenText.contains { $0.hasSuffix("end of posts · 1 item") || $0.contains("end of posts · 1 item ") })
        #expect(!state.screenText.contains { $0.contains("1 items") })
    }

    @Test func theLastPageShowsAnEndRow() throws {
        let library = MemoryLibrary(count: 10, hasNextPage: true)
        var state = try reader(library)
        state.press(.character("G"))
        library.append(3, hasNextPage: false)
        _ = state.pageLoaded(collectionID: 1, failure: nil)
        state.press(.character("G"))
        #expect(state.screenText.contains { $0.contains("end of posts · 13 items") })
        #expect(state.press(.character("G"), .up, .down).isEmpty)
    }

    @Test func anEmptyCollectionWithANextPageLoadsItAtOnce() throws {
        var state = try reader(MemoryLibrary(count: 0, hasNextPage: true))
        #expect(state.start() == .loadNextPage(collectionID: 1))
    }

    @Test func noPrefetchWhileARefreshRuns() throws {
        var state = try reader(MemoryLibrary(count: 10, hasNextPage: true))
        _ = state.refreshChanged(collectionID: 1, status: .loading, summary: nil)
        #expect(state.press(.character("G")).isEmpty)
        #expect(state.screenText.last?.contains("refreshing…") == true)
    }

    @Test func aFinishedRefreshSaysWhatChangedAndKeepsTheSelection() throws {
        let library = MemoryLibrary(count: 20)
        var state = try reader(library, size: wide)
        state.press(.down, .down)
        library.change { collections in
            collections[0].rows.remove(at: 0)
            collections[0].entry.itemCount = 19
        }
        let done = Date(timeIntervalSince1970: 1_700_000_000)
        _ = state.refreshChanged(collectionID: 1, status: .refreshed(done), summary: "0 new, 0 updated, 1 removed · 2 × 304")
        #expect(state.selectedRow?.title == "Item 3")
        #expect(state.screenText.last?.contains("updated 22:13:20: 0 new, 0 updated, 1 removed · 2 × 304") == true)
    }
}
