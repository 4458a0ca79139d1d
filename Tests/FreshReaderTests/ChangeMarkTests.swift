import Foundation
import MirrorStore
import Testing
@testable import FreshReader

@Suite("New and changed items")
struct ChangeMarkTests {
    @Test func itemsChangedAfterOpeningAreMarkedUntilOpened() throws {
        let library = MemoryLibrary(count: 5)
        var state = try reader(library)
        library.change { collections in
            collections[0].rows[1].changedSequence = 7
            collections[0].entry.changeSequence = 7
        }
        try state.reload()
        #expect(state.screenText[1].hasPrefix("• Item 2"))
        #expect(state.screenText[0].hasPrefix("  Item 1"))
        state.press(.down, .enter, .character("q"))
        #expect(state.screenText[1].hasPrefix("  Item 2"))
    }

    @Test func whatChangedSinceTheLastRunIsMarkedInTheNext() throws {
        let library = MemoryLibrary(count: 5)
        library.change { $0[0].entry.changeSequence = 3 }
        _ = try reader(library)
        #expect(try library.collections()[0].shownSequence == 3)
        // Between the runs, a sync changes item 4.
        library.change { collections in
            collections[0].rows[3].changedSequence = 4
            collections[0].entry.changeSequence = 4
        }
        let next = try reader(library)
        #expect(next.screenText[3].hasPrefix("• Item 4"))
        #expect(next.screenText[2].hasPrefix("  Item 3"))
        #expect(try library.collections()[0].shownSequence == 4)
        // A third run has nothing new to mark.
        #expect(try reader(library).screenText[3].hasPrefix("  Item 4"))
    }
}
