import Foundation
import MirrorStore
import Testing
@testable import FreshReader

@Suite("Windowed reads")
struct WindowTests {
    @Test func everyStepReadsAtMostOneScreenOfRows() throws {
        for count in [100, 100_000] {
            let library = MemoryLibrary(count: count)
            var state = try reader(library)
            let height = state.list.height
            #expect(library.takeReads().allSatisfy { $0 <= height })
            for key: KeyInput in [.down, .down, .pageDown, .control("d"), .up, .pageUp, .end, .up, .pageUp, .home] {
                state.press(key)
                #expect(library.takeReads().reduce(0, +) <= height, "at \(count) items, \(key.name)")
            }
        }
    }

    @Test func theWindowShowsTheRightRowsAfterEveryKindOfStep() throws {
        var state = try reader(MemoryLibrary(count: 1000))
        for (key, expected) in [(KeyInput.pageDown, 12), (.down, 13), (.control("u"), 8), (.end, 1000), (.pageUp, 989),
                                (.control("d"), 994), (.home, 1)] {
            state.press(key)
            #expect(state.selectedRow?.title == "Item \(expected)", "after \(key.name)")
            let shown = state.screenText.prefix(state.list.height).filter { $0.contains("Item ") }
            #expect(shown.count == state.list.visibleRange.filter { $0 < state.itemCount }.count)
            #expect(shown.first?.contains("Item \(state.list.top + 1) ") == true)
        }
    }

    @Test func anotherWriterIsSeenOnReload() throws {
        let library = MemoryLibrary(count: 5)
        var state = try reader(library)
        library.append(2, hasNextPage: false)
        try state.reload()
        #expect(state.itemCount == 7)
        #expect(state.screenText.contains { $0.contains("Item 7") })
    }
}
