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

    /// A search that goes past the last match starts again at the top, and says so (as vim does).
    @Test func aSearchThatWrapsAroundSaysSo() throws {
        var state = try reader(MemoryLibrary(count: 30))
        state.press(.character("/"))
        state.type("item 2")
        state.press(.enter)
        for _ in 0..<10 { state.press(.character("n")) }
        #expect(state.selectedRow?.title == "Item 29" && state.message == nil)
        state.press(.character("n"))
        #expect(state.selectedRow?.title == "Item 2" && state.message == "search hit the bottom, continued at the top")
        state.press(.character("N"))
        #expect(state.selectedRow?.title == "Item 29" && state.message == "search hit the top, continued at the bottom")
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

    /// A collection's first search does not wait for its search index: it runs without it in the
    /// background while the index is built, the screen stays live, and a later search takes its place.
    @Test func aFirstSearchRunsWithoutTheIndexWhileTheIndexIsBuilt() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library, size: ScreenSize(rows: 12, columns: 100))
        state.press(.character("/"))
        state.type("item 2")
        let first = ReaderState.PendingSearch(collectionID: 1, query: "item 2", backward: false, afterItem: 1)
        #expect(state.press(.enter) == [.searchWithoutIndex(first, after: ItemPosition(pageIndex: 0, position: 0))])
        #expect(state.selectedRow?.title == "Item 1")
        #expect(state.screenText.last?.contains("/item 2: searching…") == true)
        // The screen stays live; a second search takes the running one's place.
        _ = state.press(.character("j"))
        #expect(state.selectedRow?.title == "Item 2")
        _ = state.press(.character("/"))
        state.type("item 3")
        let second = ReaderState.PendingSearch(collectionID: 1, query: "item 3", backward: false, afterItem: 2)
        #expect(state.press(.enter) == [.searchWithoutIndex(second, after: ItemPosition(pageIndex: 0, position: 1))])
        // The first one's answer comes too late: it moves nothing.
        #expect(state.searchedWithoutIndex(first, match: 12, failure: nil) == .none)
        #expect(state.selectedRow?.title == "Item 2")
        #expect(state.pendingSearch == second)
        // The second's answer selects its match, and says it was found without the index.
        #expect(state.searchedWithoutIndex(second, match: 3, failure: nil) == .none)
        #expect(state.selectedRow?.title == "Item 3")
        #expect(state.pendingSearch == nil)
        #expect(state.screenText.last?.contains("found without the search index, which is being built") == true)
        // The index, built since, has no search left to run; the next one asks it at once.
        library.searchIndexIsCurrent.withLock { $0 = true }
        #expect(state.searchIndexUpdated(collectionID: 1) == .none)
        #expect(state.selectedRow?.title == "Item 3")
        #expect(state.press(.character("n")).isEmpty, "the index is current: n searches at once")
        #expect(state.selectedRow?.title == "Item 30")
    }

    /// A search without the index that wraps past the end says both (the wrap hid that it was
    /// found without the index, and make bench-reader waited for those words in vain), and an
    /// earlier search's "no match" is not left on the status line.
    @Test func aSearchWithoutTheIndexThatWrapsSaysBoth() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library, size: ScreenSize(rows: 12, columns: 160))
        _ = state.press(.character("G"))
        _ = state.press(.character("/"))
        state.type("zqxjvw")
        let absent = ReaderState.PendingSearch(collectionID: 1, query: "zqxjvw", backward: false, afterItem: 30)
        _ = state.press(.enter)
        _ = state.searchedWithoutIndex(absent, match: nil, failure: nil)
        #expect(state.message == "no match for \"zqxjvw\"")
        _ = state.press(.character("/"))
        state.type("item 15")
        let wrapping = ReaderState.PendingSearch(collectionID: 1, query: "item 15", backward: false, afterItem: 30)
        _ = state.press(.enter)
        _ = state.searchedWithoutIndex(wrapping, match: 15, failure: nil)
        #expect(state.selectedRow?.title == "Item 15")
        #expect(state.message == "search hit the bottom, continued at the top; found without the search index, which is being built")
    }

    /// When the index is built before the search without it ends, the index answers, and the other
    /// answer is dropped; in an open item, the match opens.
    @Test func theIndexBuiltFirstAnswersAndAMatchOpensInAnOpenItem() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library, size: ScreenSize(rows: 12, columns: 100))
        _ = state.press(.enter)
        #expect(state.mode == .item)
        state.press(.character("/"))
        state.type("item 7")
        let search = ReaderState.PendingSearch(collectionID: 1, query: "item 7", backward: false, afterItem: 1)
        #expect(state.press(.enter) == [.searchWithoutIndex(search, after: ItemPosition(pageIndex: 0, position: 0))])
        library.searchIndexIsCurrent.withLock { $0 = true }
        #expect(state.searchIndexUpdated(collectionID: 1) == .none)
        #expect(state.openRow?.title == "Item 7")
        #expect(state.searchedWithoutIndex(search, match: 17, failure: nil) == .none)
        #expect(state.openRow?.title == "Item 7")
        #expect(state.message == nil)
    }

    /// Without the index, no match, the only match, and a failure each say so.
    @Test func aSearchWithoutTheIndexSaysNoMatchTheOnlyMatchOrWhyItFailed() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library)
        var searches: [ReaderState.PendingSearch] = []
        for query in ["zebra", "item 1", "item"] {
            state.press(.character("/"))
            state.type(query)
            guard case .searchWithoutIndex(let search, _)? = state.press(.enter).first else {
                Issue.record("no search without the index for \(query)")
                return
            }
            searches.append(search)
            switch query {
            case "zebra": _ = state.searchedWithoutIndex(search, match: nil, failure: nil)
            case "item 1": _ = state.searchedWithoutIndex(search, match: 1, failure: nil)
            default: _ = state.searchedWithoutIndex(search, match: nil, failure: "disk I/O error")
            }
            let expected = ["zebra": "no match for \"zebra\"",
                            "item 1": "the only match for \"item 1\"; found without the search index, which is being built",
                            "item": "cannot search: disk I/O error"][query]
            #expect(state.message == expected, "\(query)")
        }
        #expect(searches.map(\.afterItem) == [1, 1, 1])
        #expect(state.selectedRow?.title == "Item 1")
    }

    /// An answer that ends once the reader shows another collection runs no search there.
    @Test func aWaitingSearchIsDroppedWhenTheCollectionIsLeft() throws {
        let library = MemoryLibrary([MemoryLibrary.collection(id: 1, name: "posts", count: 30),
                                     MemoryLibrary.collection(id: 2, name: "users", count: 5)])
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library)
        _ = state.press(.enter)
        #expect(state.entry?.id == 1)
        _ = state.press(.character("/"))
        state.type("item 2")
        let search = ReaderState.PendingSearch(collectionID: 1, query: "item 2", backward: false, afterItem: 1)
        #expect(state.press(.enter) == [.searchWithoutIndex(search, after: ItemPosition(pageIndex: 0, position: 0))])
        _ = state.press(.character("q"))
        #expect(state.mode == .collections)
        #expect(state.searchedWithoutIndex(search, match: 2, failure: nil) == .none)
        #expect(state.searchIndexUpdated(collectionID: 1) == .none)
        #expect(state.pendingSearch == nil)
        #expect(state.message == nil)
    }

    /// A read-only mirror keeps no index, so every search reads the items in the background (at a
    /// million items a word no item holds takes seconds): the screen stays live meanwhile, the
    /// index update that ends at once leaves the search running, and its answer selects the match.
    @Test func aReadOnlyMirrorSearchesInTheBackgroundEveryTime() throws {
        let library = MemoryLibrary(count: 30)
        library.searchIndexIsCurrent.withLock { $0 = false }
        var state = try reader(library, size: ScreenSize(rows: 12, columns: 100), canFetch: false)
        state.press(.character("/"))
        state.type("item 2")
        let first = ReaderState.PendingSearch(collectionID: 1, query: "item 2", backward: false, afterItem: 1)
        #expect(state.press(.enter) == [.searchWithoutIndex(first, after: ItemPosition(pageIndex: 0, position: 0))])
        #expect(state.screenText.last?.contains("/item 2: searching…") == true)
        #expect(state.searchIndexUpdated(collectionID: 1) == .none, "nothing was indexed")
        #expect(state.pendingSearch == first, "the search without the index goes on")
        _ = state.press(.character("j"))
        #expect(state.selectedRow?.title == "Item 2", "the screen stays live")
        #expect(state.searchedWithoutIndex(first, match: 2, failure: nil) == .none)
        #expect(state.selectedRow?.title == "Item 2")
        #expect(state.message == nil, "no index is being built: nothing to say")
        let next = ReaderState.PendingSearch(collectionID: 1, query: "item 2", backward: false, afterItem: 2)
        #expect(state.press(.character("n")) == [.searchWithoutIndex(next, after: ItemPosition(pageIndex: 0, position: 1))],
                "n reads in the background too")
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
