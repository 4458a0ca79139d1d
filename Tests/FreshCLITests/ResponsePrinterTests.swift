import Foundation
import HTTPCache
import Testing
@testable import FreshCLI

@Suite("fresh get -o")
struct ResponsePrinterTests {
    let response = CachedResponse(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"ok":true}"#.utf8),
                                  url: URL(string: "http://o.test/a")!, decision: CacheDecision(outcome: .downloaded))

    @Test func writesIntoAFIFOWithoutReplacingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-printer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader is a thread of its own: opening a FIFO blocks until both ends are open.
        let received = ReceivedBytes()
        let reader = Thread { received.finish(FileHandle(forReadingAtPath: fifo).flatMap { try? $0.readToEnd() }) }
        reader.start()
        try ResponsePrinter(include: false, json: false, output: fifo).print(response)
        #expect(received.wait() == response.body)
        var status = stat()
        #expect(stat(fifo, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func replacesTheContentOfARegularFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-printer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x78, count: 100).write(to: URL(fileURLWithPath: path))
        try ResponsePrinter(include: true, json: false, output: path).print(response)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix(#"{"ok":true}"#))
    }

    @Test func aTextBodyForATerminalKeepsItsLinesAndLosesItsEscapes() throws {
        var hostile = response
        hostile.body = Data("title\r\n\u{1B}]0;owned\u{7}body\n".utf8)
        let printed = try ResponsePrinter(include: false, json: false, toTerminal: true).rendered(hostile)
        #expect(String(decoding: printed, as: UTF8.self) == "title\r\n\\u{1b}]0;owned\\u{7}body\n")
        #expect(try ResponsePrinter(include: false, json: false).rendered(hostile) == hostile.body)
    }

    @Test func aBodyThatIsNotUTF8IsShownWithReplacementCharacters() throws {
        var latin1 = response
        latin1.body = Data([0x63, 0x61, 0x66, 0xE9, 0x0A]) // "café\n" in ISO 8859-1
        let printed = try ResponsePrinter(include: false, json: false, toTerminal: true).rendered(latin1)
        #expect(String(decoding: printed, as: UTF8.self) == "caf\u{FFFD}\n")
    }

    @Test(arguments: [Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]), Data("a\u{0}b".utf8)])
    func aBinaryBodyIsNotPrintedToATerminal(body: Data) throws {
        var binary = response
        binary.body = body
        #expect(throws: FileError.self) { try ResponsePrinter(include: true, json: false, toTerminal: true).rendered(binary) }
        #expect(try ResponsePrinter(include: false, json: false).rendered(binary) == body)
    }

    @Test func anOutputPathIsCheckedBeforeTheRequest() throws {
        #expect(throws: FileError.self) { try ResponsePrinter.checkWritable("/nonexistent-dir/out") }
        #expect(throws: FileError.self) { try ResponsePrinter.checkWritable(NSTemporaryDirectory()) }
        let file = NSTemporaryDirectory() + "fresh-printer-\(UUID().uuidString)"
        try Data().write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: FileError.self) { try ResponsePrinter.checkWritable(file + "/out") }
        try ResponsePrinter.checkWritable(NSTemporaryDirectory() + "fresh-printer-\(UUID().uuidString)")
        try ResponsePrinter.checkWritable("/dev/null")
    }

    @Test func aOneLetterOutputNameInTheCurrentDirectoryIsWritable() throws {
        let directory = FileManager.default.currentDirectoryPath
        try #require(access(directory, W_OK) == 0)
        try ResponsePrinter.checkWritable("a")
    }

    @Test func anUnwritablePathSaysWhy() {
        #expect(throws: FileError.self) {
            try ResponsePrinter(include: false, json: false, output: "/nonexistent-dir/out").print(response)
        }
    }
}

/// What the FIFO's reader thread read, handed over once.
final class ReceivedBytes: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data: Data?

    func finish(_ data: Data?) {
        self.data = data
        done.signal()
    }

    /// The bytes, or nil when the reader got nothing within 10 s (the FIFO was never opened
    /// for writing, say because it was replaced by a file).
    func wait() -> Data? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return data
    }
}
