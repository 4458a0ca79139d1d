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

    @Test func aNamedCollectionOpensDirectly() throws {
        var state = try reader(library(), collectionID: 2)
        #expect(state.mode == .list)
        #expect(state.handle(.character("q")) == .quit)
    }
}
