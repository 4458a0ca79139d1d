import Fetcher
import Foundation
import Glibc
import Testing
@testable import FreshReader

/// A terminal that plays back keys and records frames. When the script runs out it quits,
/// so a loop under test always ends.
final class ScriptedScreen: TerminalScreen {
    var size = ScreenSize(rows: 10, columns: 50)
    private var script: [KeyInput?]
    private(set) var frames: [[ScreenLine]] = []
    /// Runs before each key is handed out (posts mailbox messages "while the user waits").
    var beforeRead: (Int) -> Void = { _ in }
    private var reads = 0
    /// Set by a test to play a terminal that went away.
    var inputClosed = false

    init(_ script: [KeyInput?]) {
        self.script = script
    }

    func draw(_ lines: [ScreenLine]) { frames.append(lines) }

    func readInput() -> KeyInput? {
        beforeRead(reads)
        reads += 1
        return script.isEmpty ? .character("q") : script.removeFirst()
    }
}

@Suite("UI loop")
struct ReaderLoopTests {
    func run(_ screen: ScriptedScreen, library: MemoryLibrary, inbox: Mailbox<ReaderEvent> = Mailbox(),
             changed: @escaping () throws -> Bool = { false }, perform: @escaping (ReaderState.Effect) -> Void = { _ in }) throws -> ReaderState {
        var loop = ReaderLoop(state: try reader(library, size: screen.size), screen: screen, inbox: inbox, perform: perform,
                              databaseChanged: changed)
        return loop.run()
    }

    @Test func firstFrameShowsTheStoredItemsAndStartsTheRefresh() throws {
        let screen = ScriptedScreen([])
        var effects: [ReaderState.Effect] = []
        _ = try run(screen, library: MemoryLibrary(count: 3), perform: { effects.append($0) })
        #expect(screen.frames.first?[0].text.contains("Item 1") == true)
        #expect(effects == [.refresh(collectionID: 1, firstPages: [0])])
    }

    /// A terminal that can no longer be read (hung up, or reads failing with EIO) ends the loop,
    /// as SIGHUP does: it was polled 4,600 times a second, keys ignored, for as long as it ran.
    @Test func aTerminalThatCannotBeReadEndsTheLoop() throws {
        let screen = ScriptedScreen(Array(repeating: nil, count: 50) + [.character("j")])
        screen.beforeRead = { read in if read == 3 { screen.inputClosed = true } }
        _ = try run(screen, library: MemoryLibrary(count: 3))
        #expect(screen.frames.count == 1)
    }

    @Test func anotherProcessesWriteIsDrawnWithoutAKey() throws {
        let library = MemoryLibrary(count: 3)
        let screen = ScriptedScreen([nil, nil])
        var polls = 0
        screen.beforeRead = { read in if read == 0 { library.append(1, hasNextPage: false) } }
        _ = try run(screen, library: library, changed: {
            polls += 1
            return polls == 2
        })
        #expect(screen.frames.last?.contains { $0.text.contains("Item 4") } == true)
    }

    /// A change check that fails (the file vanished, a disk error) is said on the status line:
    /// live updates do not stop silently.
    @Test func aChangeCheckThatFailsIsShown() throws {
        let screen = ScriptedScreen([nil])
        _ = try run(screen, library: MemoryLibrary(count: 3), changed: { throw MemoryLibrary.Unreadable() })
        #expect(screen.frames.last?.last?.text.hasPrefix(" cannot read the database: disk") == true)
    }

    @Test func aMessageGoesAwayAfterAMoment() throws {
        let screen = ScriptedScreen([.character("x")] + Array(repeating: nil, count: ReaderLoop.messagePolls))
        _ = try run(screen, library: MemoryLibrary(count: 3))
        #expect(screen.frames.contains { $0.last?.text.contains("unknown key x") == true })
        #expect(screen.frames.last?.last?.text.contains("unknown key") == false)
    }

    /// The message stays for as many waits as timed out: a wait a posted message ended (a page
    /// stored, a refresh moving on) does not count.
    @Test func aWaitEndedByAPostedMessageKeepsTheMessage() throws {
        let inbox = Mailbox<ReaderEvent>()
        let screen = ScriptedScreen([.character("x")] + Array(repeating: nil, count: ReaderLoop.messagePolls))
        screen.beforeRead = { _ in inbox.post(.searchIndexUpdated(collectionID: 99)) }
        _ = try run(screen, library: MemoryLibrary(count: 3), inbox: inbox)
        #expect(screen.frames.last?.last?.text.contains("unknown key x") == true)
    }

    /// A message posted from the background ends the UI thread's wait for a key at once (the
    /// terminal's wait polls the mailbox's signal beside standard input).
    @Test func aPostedMessageSetsTheSignalTheWaitWatches() {
        let inbox = Mailbox<ReaderEvent>()
        var wait = [pollfd(fd: inbox.wake.descriptor, events: Int16(POLLIN), revents: 0)]
        #expect(inbox.wake.descriptor >= 0)
        #expect(poll(&wait, 1, 0) == 0)
        inbox.post(.quit)
        #expect(poll(&wait, 1, 0) == 1)
        inbox.wake.clear()
        #expect(poll(&wait, 1, 0) == 0)
        #expect(!inbox.isEmpty)
        _ = inbox.drain()
        #expect(inbox.isEmpty)
    }

    @Test func aSignalQuits() throws {
        let inbox = Mailbox<ReaderEvent>()
        let screen = ScriptedScreen([nil, nil, .character("j")])
        screen.beforeRead = { if $0 == 1 { inbox.post(.quit) } }
        let final = try run(screen, library: MemoryLibrary(count: 3), inbox: inbox)
        #expect(final.list.selected == 0)
    }
}
