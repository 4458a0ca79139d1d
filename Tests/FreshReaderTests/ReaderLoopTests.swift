import Fetcher
import Foundation
import Models
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
    func run(_ screen: ScriptedScreen, posts stored: [Post], inbox: Mailbox<ReaderEvent> = Mailbox(),
             refresh: @escaping () -> Void = {}) -> ReaderState {
        var loop = ReaderLoop(state: ReaderState(posts: stored, size: screen.size, measure: cells, timeZone: utc),
                              screen: screen, inbox: inbox, refresh: refresh)
        return loop.run()
    }

    @Test func firstFrameShowsTheStoredPostsBeforeAnyKey() {
        let screen = ScriptedScreen([])
        _ = run(screen, posts: posts(3))
        #expect(screen.frames.first?[1].text.contains("Post 1") == true)
    }

    @Test func rStartsARefreshAndTheUIKeepsGoing() {
        let screen = ScriptedScreen([.character("r"), .character("j")])
        var refreshes = 0
        let final = run(screen, posts: posts(3)) { refreshes += 1 }
        #expect(refreshes == 1)
        #expect(final.selectedPost?.id == 2)
    }

    @Test func mailboxMessagesAreDrawnWithoutAKey() {
        let inbox = Mailbox<ReaderEvent>()
        let screen = ScriptedScreen([nil, nil])
        screen.beforeRead = { read in
            if read == 0 { inbox.post(.fetch(FetchState(value: nil, status: .loading))) }
            if read == 1 { inbox.post(.posts(posts(7))) }
        }
        _ = run(screen, posts: posts(3), inbox: inbox)
        let statusLines = screen.frames.map { $0.last!.text }
        #expect(statusLines[0].hasPrefix(" 3 posts "))
        #expect(statusLines[1].hasPrefix(" 3 posts · refreshing…"))
        #expect(statusLines[2].hasPrefix(" 7 posts · refreshing…"))
    }

    @Test func quitMessageEndsTheLoop() {
        let inbox = Mailbox<ReaderEvent>()
        inbox.post(.quit)
        let screen = ScriptedScreen([.character("j")])
        let final = run(screen, posts: posts(3), inbox: inbox)
        #expect(final.selectedPost?.id == 1)
        #expect(screen.frames.isEmpty)
    }

    @Test func resizeLaysTheScreenOutAgain() {
        let screen = ScriptedScreen([.resize])
        screen.beforeRead = { read in if read == 0 { screen.size = ScreenSize(rows: 6, columns: 30) } }
        _ = run(screen, posts: posts(3))
        #expect(screen.frames.last?.count == 6)
        #expect(screen.frames.last?.allSatisfy { cells.cells($0.text) == 30 } == true)
    }

    @Test func escInAPostGoesBackAndEscInTheListQuits() {
        let screen = ScriptedScreen([.enter, .escape, .character("j"), .escape, .character("j")])
        let final = run(screen, posts: posts(3))
        #expect(final.mode == .list)
        #expect(final.selectedPost?.id == 2)
    }
}
