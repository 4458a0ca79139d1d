import Foundation
import TerminalText

/// Everything `fresh` prints on stdout, in one place, so that two rules hold for every command
/// and format:
/// - **on a terminal**, nothing a server sent can drive it: text has its control characters,
///   C1 controls and bidi overrides escaped (``TerminalText/sanitized(_:keepingLineBreaks:)``),
///   JSON the same scalars written as JSON escapes (``TerminalText/jsonEscaped(_:)``);
/// - **in a pipe or a file**, the bytes are exact.
///
/// Each write goes out at once (no stdio buffer between), so a line of `--watch` reaches a pipe,
/// a file or a journal when it happens, and lines keep their order with stderr's.
enum StandardOutput {
    /// What a text is, which decides how a terminal is kept safe from it.
    enum Kind {
        /// Lines of text (a summary, a table, CSV): tabs and line breaks stay.
        case text
        case json
    }

    static let isTerminal = isatty(STDOUT_FILENO) == 1

    /// `text` as it may be written: exact in a pipe, made safe on a terminal.
    static func safe(_ text: String, as kind: Kind) -> String {
        guard isTerminal else { return text }
        switch kind {
        case .text: return TerminalText.sanitized(text, keepingLineBreaks: true)
        case .json: return TerminalText.jsonEscaped(text)
        }
    }

    static func write(_ text: String, as kind: Kind = .text) {
        emit(Data(safe(text, as: kind).utf8))
    }

    /// Writes `bytes` to stdout as they are. A stdout that cannot take them (a full disk, a
    /// file that cannot grow) ends the command with one line and exit 6, as a file that cannot
    /// be written does, where Foundation's `FileHandle.write(_:)` would crash with a trace.
    static func emit(_ bytes: Data) {
        guard let failure = writeAll(bytes, to: STDOUT_FILENO) else { return }
        StandardError.write("fresh: cannot write to standard output: \(String(cString: strerror(failure)))")
        exit(6)
    }

    /// Writes all of `bytes` to `descriptor`, in as many `write(2)` calls as it takes; returns
    /// the `errno` of a write that failed, `nil` when all went.
    static func writeAll(_ bytes: Data, to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return errno }
                offset += written
            }
            return nil
        }
    }

    static func line(_ line: String, as kind: Kind = .text) {
        write(line + "\n", as: kind)
    }
}

/// Stdout written in 64 KiB blocks, so printing 100,000 items is not 100,000 writes; each
/// piece is made safe as ``StandardOutput`` makes it.
final class BufferedOutput {
    private let kind: StandardOutput.Kind
    private var buffer = Data()

    init(_ kind: StandardOutput.Kind) { self.kind = kind }

    func write(_ text: String) {
        append(StandardOutput.safe(text, as: kind).utf8)
    }

    /// UTF-8 text: its bytes as they are in a pipe; on a terminal, made safe as ``write(_:)`` makes it.
    func write(utf8 text: [UInt8]) {
        if StandardOutput.isTerminal { return write(String(decoding: text, as: UTF8.self)) }
        append(text)
    }

    private func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 * 1024 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        StandardOutput.emit(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
