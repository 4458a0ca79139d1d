import Foundation
import Testing
@testable import FreshReader
import JSON
import MirrorStore
import Pagination
import SyncEngine

/// A screen wide enough that no help line wraps.
let wide = ScreenSize(rows: 60, columns: 160)

@Suite("Reader state machine: keys")
struct ReaderStateTests {
    @Test func jAndKMoveTheSelection() throws {
        var state = try reader(MemoryLibrary(count: 5))
        state.press(.character("j"), .character("j"), .character("k"), .down)
        #expect(state.selectedRow?.title == "Item 3")
        state.press(.up)
        #expect(state.selectedRow?.title == "Item 2")
    }

    /// A window that cannot be read after a resize says so on the status line.
    @Test func aResizeThatCannotReadSaysSo() throws {
        let library = MemoryLibrary(count: 50)
        var state = try reader(library)
        library.makeUnreadable()
        state.resize(to: ScreenSize(rows: 30, columns: 60))
        #expect(state.message == "cannot read the database: disk I/O error")
    }

    /// The help opened narrow is wrapped again when the terminal widens (it kept its narrow lines).
    @Test func theHelpIsWrappedAgainAfterAResize() throws {
        var state = try reader(MemoryLibrary(count: 5), size: ScreenSize(rows: 30, columns: 40))
        state.press(.character("?"))
        let narrow = state.textLines.count
        state.resize(to: wide)
        #expect(state.mode == .text && state.textLines.count == Keymap.helpLines().count && state.textLines.count < narrow)
    }

    @Test func ctrlDAndCtrlUMoveHalfAScreen() throws {
        var state = try reader(MemoryLibrary(count: 100))
        state.press(.control("d"))
        #expect(state.list.selected == state.list.height / 2)
        state.press(.control("u"))
        #expect(state.list.selected == 0)
    }

    @Test func pageKeysAndJumps() throws {
        var state = try reader(MemoryLibrary(count: 100))
        state.press(.character(" "))
        #expect(state.list.selected == state.list.height)
        state.press(.character("b"))
        #expect(state.list.selected == 0)
        state.press(.character("G"))
        #expect(state.selectedRow?.title == "Item 100")
        state.press(.character("g"))
        #expect(state.selectedRow?.title == "Item 1")
        state.press(.end, .pageUp, .home, .pageDown)
        #expect(state.list.selected == state.list.height)
    }

    @Test func enterOpensTheItemWithEveryFieldAndQGoesBack() throws {
        var state = try reader(MemoryLibrary(count: 5))
        state.press(.down, .enter)
        #expect(state.mode == .item)
        let text = state.textLines.map(\.text)
        #expect(text.first == " Item 2")
        #expect(text.contains(" id: 2"))
        #expect(text.contains(" author: Author 2"))
        state.press(.character("q"))
        #expect(state.mode == .list)
        #expect(state.selectedRow?.title == "Item 2")
    }

    @Test func capitalJAndKOpenTheNextAndPreviousItem() throws {
        var state = try reader(MemoryLibrary(count: 5))
        state.press(.enter, .character("J"), .character("J"))
        #expect(state.openRow?.title == "Item 3")
        state.press(.character("K"))
        #expect(state.openRow?.title == "Item 2")
        #expect(state.mode == .item)
    }

    @Test func qInTheFirstScreenQuitsAndEscToo() throws {
        var state = try reader(MemoryLibrary(count: 2))
        #expect(state.handle(.character("q")) == .quit)
        #expect(state.handle(.escape) == .quit)
    }

    @Test func unknownKeysSaySoAndDoNothing() throws {
        var state = try reader(MemoryLibrary(count: 5))
        state.press(.character("x"))
        #expect(state.message == "unknown key x — press ? for help")
        #expect(state.list.selected == 0)
        state.press(.down)
        #expect(state.message == nil)
    }

    @Test func questionMarkShowsHelpFromTheKeymap() throws {
        var state = try reader(MemoryLibrary(count: 5), size: wide)
        state.press(.character("?"))
        #expect(state.mode == .text)
        let text = state.textLines.map(\.text).joined(separator: "\n")
        for binding in Keymap.bindings { #expect(text.contains(binding.help)) }
        state.press(.character("q"))
        #expect(state.mode == .list)
    }

    @Test func rAsksForARefreshOfThePagesOnScreen() throws {
        var state = try reader(MemoryLibrary(count: 25))
        #expect(state.handle(.character("r")) == .refresh(collectionID: 1, firstPages: [0, 1]))
        state.press(.enter)
        #expect(state.handle(.character("r")) == .refresh(collectionID: 1, firstPages: [0, 1]))
        #expect(state.mode == .item)
    }

    @Test func eShowsTheFullStatus() throws {
        var state = try reader(MemoryLibrary(count: 5), size: wide)
        _ = state.refreshChanged(collectionID: 1, status: .failed(.init(message: "cannot reach the server: connection refused (127.0.0.1:1)", isOffline: true)),
                                 summary: nil)
        state.press(.character("e"))
        #expect(state.textLines.map(\.text).contains { $0.contains("Offline: cannot reach the server: connection refused (127.0.0.1:1)") })
    }

    @Test func startingOnACompleteCollectionRefreshesIt() throws {
        var state = try reader(MemoryLibrary(count: 5))
        #expect(state.start() == .refresh(collectionID: 1, firstPages: [0]))
    }

    @Test func aRefusedRefreshIsSaidWithAHintAndIsNotOffline() {
        let refused = CollectionRefresher.failure(SyncError.httpStatus(code: 401, url: "http://o.test/items", message: nil))
        #expect(!refused.isOffline && refused.message.hasPrefix("the server refused the request (401 Unauthorized)"))
        #expect(refused.message.contains("fresh source show"))
        #expect(!CollectionRefresher.failure(SyncError.httpStatus(code: 500, url: "http://o.test/items", message: nil)).message.contains("refused"))
    }

    /// A collection complete once, whose later refresh failed or was cut short, is refreshed on
    /// open (not paged), and the list says its items are stale rather than an error.
    @Test func aCollectionCompleteOnceIsRefreshedAfterAFailedRefresh() throws {
        func record(lastCompleteAt: Double?) throws -> CollectionRecord {
            CollectionRecord(id: 1, name: "posts", url: "u", plan: PaginationPlan(style: .link, items: JSONPath([]), key: JSONPath(["id"]), sizeParameter: nil),
                             createdAt: 0, pass: 2, passComplete: false, passStartedAt: nil, lastCompleteAt: lastCompleteAt, lastSyncAt: nil,
                             lastError: "cannot reach the server", changeSequence: 1, shownSequence: nil)
        }
        let failedRefresh = CollectionEntry(try record(lastCompleteAt: 1), itemCount: 5)
        #expect(!failedRefresh.hasNextPage)
        #expect(failedRefresh.status == "stale (last refresh failed: cannot reach the server)")
        #expect(CollectionEntry(try record(lastCompleteAt: nil), itemCount: 5).hasNextPage, "a first sync that stopped still pages")
        #expect(CollectionEntry(try record(lastCompleteAt: nil), itemCount: 0).status == "error: cannot reach the server")
    }

    @Test func aReadOnlyReaderNeverFetches() throws {
        var options = ReaderState.Options()
        options.canFetch = false
        var state = try ReaderState(library: MemoryLibrary(count: 5, hasNextPage: true), size: ScreenSize(rows: 12, columns: 60),
                                    options: options, measure: cells, timeZone: utc)
        #expect(state.start() == .none)
        #expect(state.press(.character("G"), .character("r")).isEmpty)
        #expect(state.message?.contains("read-only") == true)
    }
}
