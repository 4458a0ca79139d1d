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
