import Foundation
import Testing
@testable import FreshReader
import JSON
import MirrorStore
import Pagination
import SyncEngine

@Suite("Reader state machine: collections")
struct CollectionListTests {
    func library() -> MemoryLibrary {
        MemoryLibrary([MemoryLibrary.collection(id: 1, name: "posts", count: 30), MemoryLibrary.collection(id: 2, name: "users", count: 4)])
    }

    @Test func severalCollectionsOpenOnTheCollectionList() throws {
        var state = try reader(library())
        #expect(state.mode == .collections)
        #expect(state.screenText[0].hasPrefix("NAME"))
        #expect(state.screenText[1].contains("posts") && state.screenText[1].contains("30") && state.screenText[1].contains("synced"))
        state.press(.down, .enter)
        #expect(state.mode == .list)
        #expect(state.entry?.name == "users")
        state.press(.character("q"))
        #expect(state.mode == .collections)
        #expect(state.handle(.character("q")) == .quit)
    }

    /// The open collection removed by another process (`fresh rm`): the reader goes back to
    /// the collections stored and says why. Its screen stayed as it was, rows read as blanks.
    @Test func aCollectionRemovedWhileOpenLeavesForTheList() throws {
        let library = library()
        var state = try reader(library, collectionID: 1)
        state.press(.enter)
        #expect(state.mode == .item)
        library.change { $0.removeAll { $0.entry.id == 1 } }
        try state.reload()
        #expect(state.mode == .collections && state.entry == nil && state.message == "the collection was removed")
        #expect(state.screenText.contains { $0.contains("users") } && !state.screenText.contains { $0.contains("posts") })
    }

    @Test func aNamedCollectionOpensDirectly() throws {
        var state = try reader(library(), collectionID: 2)
        #expect(state.mode == .list)
        #expect(state.handle(.character("q")) == .quit)
    }
}
