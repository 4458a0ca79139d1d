import Foundation
import Storage
import Testing
import TerminalText
@testable import FreshReader

@Suite("Frames")
struct ReaderFrameTests {
    @Test func fillsTheScreenExactlyWithThePositionOnTheRight() throws {
        let state = try reader(MemoryLibrary(count: 4567))
        let frame = ReaderFrame.lines(for: state)
        #expect(frame.count == 12)
        #expect(frame.allSatisfy { cells.cells($0.text) == 60 })
        #expect(frame.last?.text.contains("1/4,567 · ? help") == true)
        #expect(frame.last?.text.hasPrefix(" posts · 4,567 items") == true)
    }

    @Test func titleAndSecondFieldLineUpWhateverTheScript() throws {
        let library = MemoryLibrary([.init(entry: CollectionEntry(id: 1, name: "posts", url: "u", itemCount: 2, lastSync: nil, lastError: nil,
                                                                  hasNextPage: false),
                                           rows: [ListRow(id: 1, key: "1", at: .init(pageIndex: 0, position: 0), title: "한 번 받은 것은 다시 받지 않기 — why the ETag matters", subtitle: "최유나"),
                                                  ListRow(id: 2, key: "2", at: .init(pageIndex: 0, position: 1), title: "Surviving a flaky network 🚀", subtitle: "Bob Lee")])])
        let text = try reader(library).screenText
        let columns = text.prefix(2).map { line in cells.cells(line[..<line.range(of: line.contains("최유나") ? "최유나" : "Bob")!.lowerBound]) }
        #expect(columns[0] == columns[1])
        #expect(text[0].contains("…"))
    }

    @Test func remoteEscapesAndBidiOverridesNeverReachTheScreen() throws {
        let hostile = ListRow(id: 1, key: "1", at: .init(pageIndex: 0, position: 0), title: "\u{1B}[31mred\u{1B}[0m \u{202E}evil", subtitle: "\u{1B}]0;title\u{7}")
        let library = MemoryLibrary([.init(entry: CollectionEntry(id: 1, name: "p", url: "u", itemCount: 1, lastSync: nil, lastError: nil, hasNextPage: false),
                                           rows: [hostile], json: [1: #"{"title":"\u001b[2Jboom","nested":{"list":[1,"\u202e"]}}"#])])
        var state = try reader(library)
        state.press(.enter)
        let everything = (try reader(library).screenText + state.screenText).joined()
        #expect(!everything.unicodeScalars.contains { $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value) })
        #expect(everything.contains("\\u{1b}[31mred"))
        #expect(everything.contains("\\u{202e}"))
    }

    @Test func cutsNeverSplitAnEscape() {
        let safe = SafeText.line("ab\u{1B}cdef", width: cells)
        for width in 1...10 {
            let cut = SafeText.fitted(safe, to: width, measure: cells)
            #expect(cells.cells(cut) == width)
            #expect(!cut.contains("\\u{…") && !cut.contains("\\u…") && !cut.contains("\\…"))
        }
    }

    @Test func theStatusLineIsCutBetweenWords() throws {
        var state = try reader(MemoryLibrary(count: 3), size: ScreenSize(rows: 6, columns: 50))
        _ = state.refreshChanged(collectionID: 1, status: .failed(.init(message: "cannot reach the server: connection refused", isOffline: true)),
                                 summary: nil)
        let status = state.screenText.last!
        #expect(status.contains("… "))
        #expect(status.contains("1/3 · ? help"))
        #expect(!status.contains("connecti…"))
    }

    /// Left text that fills its room exactly still leaves a space before the position.
    @Test func theStatusLinesTwoPartsNeverTouch() throws {
        for columns in 30...60 {
            var state = try reader(MemoryLibrary(count: 60), size: ScreenSize(rows: 6, columns: columns))
            _ = state.press(.enter)
            _ = state.refreshChanged(collectionID: 1, status: .loading, summary: nil)
            let status = state.screenText.last!
            #expect(status.contains(" 1/60 · ? help"), "\(columns) columns: \(status)")
        }
    }

    @Test func nestedJSONIsIndentedAndLongTextWrapped() throws {
        let json = #"{"title":"T","user":{"login":"minji","tags":["a","b"]},"body":"\#(String(repeating: "word ", count: 30))"}"#
        let lines = ItemDetailView.lines(row: ListRow(id: 1, key: "1", at: .init(pageIndex: 0, position: 0), title: "T", subtitle: nil), json: json,
                                         width: 40, measure: cells).map(\.text)
        #expect(lines.contains(" user:"))
        #expect(lines.contains("   login: minji"))
        #expect(lines.contains("   tags:"))
        #expect(lines.contains("     - a"))
        #expect(lines.contains(" body:"))
        #expect(lines.filter { $0.hasPrefix("   word") }.count > 3)
        #expect(lines.allSatisfy { cells.cells($0) <= 40 })
    }

    @Test func anEmptyDatabaseSaysHowToSync() throws {
        let state = try reader(MemoryLibrary([]), size: wide)
        #expect(state.screenText.contains { $0.contains(ItemListView.emptyMessage) })
    }
}
