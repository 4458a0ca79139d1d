import Foundation
import Testing
@testable import FreshReader
import JSON
import MirrorStore
import Pagination
import SyncEngine

@Suite("Reader state machine: search")
struct SearchTests {
    @Test func slashSearchesAndNMovesToTheNextMatch() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("item 2")
        #expect(state.screenText.last?.hasPrefix(" /item 2") == true)
        state.press(.enter)
        #expect(state.selectedRow?.title == "Item 2")
        state.press(.character("n"))
        #expect(state.selectedRow?.title == "Item 20")
        state.press(.character("N"))
        #expect(state.selectedRow?.title == "Item 2")
    }

    @Test func lettersTypedInASearchAreNotCommands() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("ETag qGj")
        #expect(state.list.selected == 0)
        #expect(state.searchInput == "ETag qGj")
        state.press(.backspace)
        #expect(state.searchInput == "ETag qG")
    }

    @Test func escCancelsTheSearch() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("Item 9")
        state.press(.escape)
        #expect(state.searchInput == nil)
        #expect(state.list.selected == 0)
        #expect(state.mode == .list)
    }

    /// A collection's first search waits for its search index, brought up to date in the
    /// background: the screen stays live meanwhile, and the search runs when the index is ready.
    @Test func aFirstSearchWaitsForTheIndexWhileTheScreenStaysLive() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library, size: ScreenSize(rows: 12, columns: 100))
        state.press(.character("/"))
        state.type("item 2")
        #expect(state.press(.enter) == [.updateSearchIndex(collectionID: 1)])
        #expect(state.selectedRow?.title == "Item 1")
        #expect(state.screenText.last?.contains("/item 2: indexing for search…") == true)
        // The screen stays live; a second search takes the waiting one's place, without a second update.
        _ = state.press(.character("j"))
        #expect(state.selectedRow?.title == "Item 2")
        _ = state.press(.character("/"))
        state.type("item 3")
        #expect(state.press(.enter).isEmpty)
        // Done: the search that waited runs from where the selection is now.
        library.searchIndexIsCurrent.withLock { $0 = true }
        #expect(state.searchIndexUpdated(collectionID: 1) == .none)
        #expect(state.selectedRow?.title == "Item 3")
        #expect(state.pendingSearch == nil)
        #expect(state.screenText.last?.contains("indexing") == false)
        #expect(state.press(.character("n")).isEmpty, "the index is current: n searches at once")
        #expect(state.selectedRow?.title == "Item 30")
    }

    /// An update that ends once the reader shows another collection runs no search there.
    @Test func aWaitingSearchIsDroppedWhenTheCollectionIsLeft() throws {
        let library = MemoryLibrary([MemoryLibrary.collection(id: 1, name: "posts", count: 30),
                                     MemoryLibrary.collection(id: 2, name: "users", count: 5)])
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library)
        _ = state.press(.enter)
        #expect(state.entry?.id == 1)
        _ = state.press(.character("/"))
        state.type("item 2")
        #expect(state.press(.enter) == [.updateSearchIndex(collectionID: 1)])
        _ = state.press(.character("q"))
        #expect(state.mode == .collections)
        #expect(state.searchIndexUpdated(collectionID: 1) == .none)
        #expect(state.pendingSearch == nil)
        #expect(state.message == nil)
    }

    @Test func noMatchSaysSo() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("zebra")
        state.press(.enter)
        #expect(state.message == "no match for \"zebra\"")
        state.press(.character("n"))
        #expect(state.message == "no match for \"zebra\"")
    }
}
