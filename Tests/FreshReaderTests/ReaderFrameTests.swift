import Fetcher
import Foundation
import Models
import Testing
@testable import FreshReader

@Suite("What the screen shows")
struct ReaderFrameTests {
    let size = ScreenSize(rows: 8, columns: 60)

    func frame(_ stored: [Post], status: FetchState<[Post]>.Status = .idle, size: ScreenSize? = nil) -> [ScreenLine] {
        var state = ReaderState(posts: stored, size: size ?? self.size, measure: cells, timeZone: utc)
        state.apply(FetchState(value: nil, status: status))
        return ReaderFrame.lines(for: state)
    }

    @Test func fillsTheScreenExactly() {
        let lines = frame(posts(3))
        #expect(lines.count == 8)
        #expect(lines.allSatisfy { cells.cells($0.text) == 60 })
    }

    @Test func authorColumnLinesUpWhateverTheScript() {
        let stored = [
            post(1, title: "한 번 받은 것은 다시 받지 않기 — why the ETag matters", author: "최유나"),
            post(22, title: "Surviving a flaky network 🚀", author: "Bob Lee"),
            post(333, title: "서울의 아침 동기화 ✅ 그리고 아주 긴 제목이 계속됩니다 계속", author: "이서연"),
        ]
        let rows = frame(stored).dropFirst().prefix(3).map(\.text)
        let authorColumns = zip(rows, ["최유나", "Bob Lee", "이서연"]).map { row, author in
            cells.cells(row[..<row.range(of: author)!.lowerBound])
        }
        #expect(Set(authorColumns).count == 1)
        #expect(rows.allSatisfy { cells.cells($0) == 60 })
        #expect(rows[2].contains("…"))
    }

    @Test func idsAreRightAligned() {
        let rows = frame([post(7), post(1234)]).map(\.text)
        #expect(rows[1].hasPrefix("   7  "))
        #expect(rows[2].hasPrefix("1234  "))
    }

    @Test func selectedRowIsHighlighted() {
        let lines = frame(posts(3))
        #expect(lines[0].style == .heading)
        #expect(lines[1].style == .selected)
        #expect(lines[2].style == .plain)
    }

    @Test func emptyDatabaseSaysHowToSync() {
        let text = frame([]).map(\.text).joined(separator: "\n")
        #expect(text.contains("no posts stored yet — run: fresh sync URL"))
    }

    @Test func statusLineIsLastWithHintsOnTheRight() {
        let failure = FetchFailure(message: "cannot reach the server", isOffline: true)
        let status = frame(posts(3), status: .failed(failure), size: ScreenSize(rows: 8, columns: 120)).last!
        #expect(status.style == .status)
        #expect(status.text.contains("3 posts · offline, showing stored posts (cannot reach the server)"))
        #expect(status.text.hasSuffix("q quit "))
    }

    @Test func longStatusDropsTheHintsAndIsCut() {
        let failure = FetchFailure(message: String(repeating: "x", count: 200), isOffline: true)
        let status = frame(posts(3), status: .failed(failure)).last!
        #expect(status.text.contains("offline"))
        #expect(status.text.hasSuffix("…"))
        #expect(cells.cells(status.text) == 60)
    }

    @Test func remoteEscapeSequencesNeverReachTheScreen() {
        let hostile = post(1, title: "\u{1B}[31mred\u{1B}[0m", author: "\u{1B}]0;title\u{7}", body: "\u{1B}[2Jboom")
        var state = ReaderState(posts: [hostile], size: size, measure: cells, timeZone: utc)
        let listText = ReaderFrame.lines(for: state).map(\.text).joined()
        _ = state.handle(.open)
        let postText = ReaderFrame.lines(for: state).map(\.text).joined()
        for text in [listText, postText] {
            #expect(!text.unicodeScalars.contains("\u{1B}"))
            #expect(!text.unicodeScalars.contains("\u{7}"))
        }
    }

    @Test func openPostShowsTitleBylineAndBody() {
        var state = ReaderState(posts: [post(5, title: "제목", author: "박지호", body: "첫 문단\n\n둘째 문단",
                                             updatedAt: Date(timeIntervalSince1970: 50_601))],
                                size: size, measure: cells, timeZone: utc)
        _ = state.handle(.open)
        let lines = ReaderFrame.lines(for: state)
        #expect(lines[0].text.hasPrefix(" 제목"))
        #expect(lines[0].style == .heading)
        #expect(lines[1].text.hasPrefix(" by 박지호 · #5 · updated 1970-01-01 14:03"))
        #expect(lines[3].text.hasPrefix(" 첫 문단"))
        #expect(lines[4].text.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(lines[5].text.hasPrefix(" 둘째 문단"))
        #expect(lines.last!.text.contains("q back"))
    }
}
