import Foundation
import HTTPCache
import HTTPTypes
import Storage
import TerminalText

/// Prints a response the way `fresh get` was asked to: body only, `-i` head and body, `-I`
/// head only, or `--json`; to stdout or to a file.
struct ResponsePrinter {
    var include: Bool
    var json: Bool
    var output: String?
    /// Standard output is a terminal (and there is no `-o`): the body is printed as text with
    /// control characters escaped, and a binary body is refused, as curl refuses it.
    var toTerminal = false
    /// `-I`: the status line and header fields only.
    var headOnly = false
    /// On a terminal without `--raw`: a JSON body is re-indented (and coloured) by this.
    var prettyJSON: JSONPrettyPrinter?

    func print(_ response: CachedResponse) throws {
        let bytes = try rendered(response)
        if let output { try Self.write(bytes, to: output) } else { StandardOutput.emit(bytes) }
    }

    /// The bytes ``print(_:)`` writes.
    func rendered(_ response: CachedResponse) throws -> Data {
        if json {
            let object = try JSONSerialization.data(withJSONObject: jsonObject(response), options: [.sortedKeys, .withoutEscapingSlashes])
            // On a terminal the body's C1 controls and bidi overrides are JSON escapes too.
            let text = String(decoding: object, as: UTF8.self)
            return Data((toTerminal ? TerminalText.jsonEscaped(text) : text).utf8) + [0x0A]
        }
        var bytes = Data()
        if include || headOnly {
            // Each redirect followed first, its head only, as curl -i -L shows them.
            for hop in response.redirects + [response] { bytes.append(Data(Self.head(of: hop).utf8)) }
        }
        if !headOnly { bytes.append(try body(of: response)) }
        return bytes
    }

    /// The status line and header fields, and the blank line after them. Field values come
    /// from the network: escaped like every remote string shown.
    private static func head(of response: CachedResponse) -> String {
        var head = "\(StatusLine.text(of: response))\r\n"
        for field in response.headerFields { head += "\(field.name.rawName): \(TerminalText.sanitized(field.value))\r\n" }
        return head + "\r\n"
    }

    /// The body as it goes out: exact bytes to a file or a pipe; on a terminal, JSON re-indented
    /// when asked, any other text with its line breaks kept and every other control character
    /// escaped, so a remote body cannot drive the terminal (bytes that are not UTF-8 show as
    /// U+FFFD). A body with a NUL byte is binary, as curl judges it, and is refused there.
    private func body(of response: CachedResponse) throws -> Data {
        guard toTerminal else { return response.body }
        if let prettyJSON, JSONPrettyPrinter.isJSON(contentType: response.headerFields[.contentType]),
           let pretty = prettyJSON.format(response.body) {
            return pretty
        }
        guard !response.body.contains(0) else { throw FileError.binaryForTerminal(byteCount: response.body.count) }
        return Data(TerminalText.sanitized(String(decoding: response.body, as: UTF8.self), keepingLineBreaks: true).utf8)
    }

    /// Fails, before any request is sent, when `-o` names a file that cannot be written: a
    /// missing or read-only directory, a directory, a read-only file.
    static func checkWritable(_ path: String) throws {
        func failure(_ code: Int32) -> FileError { .cannotWrite(path, reason: String(cString: strerror(code))) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw failure(EISDIR) }
            guard access(path, W_OK) == 0 else { throw failure(errno) }
        } else {
            let parent = PathComponents.parent(of: path)
            var status = stat()
            guard stat(parent, &status) == 0 else { throw failure(errno) }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(ENOTDIR) }
            guard access(parent, W_OK | X_OK) == 0 else { throw failure(errno) }
        }
    }

    /// Writes into `path` the way `curl -o` does: opened, truncated and written in place, so a
    /// device or a FIFO (`-o /dev/null`) is written to, never replaced by a regular file as a
    /// write-then-rename would do.
    private static func write(_ bytes: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError.cannotWrite(path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        if let failure = StandardOutput.writeAll(bytes, to: descriptor) {
            throw FileError.cannotWrite(path, reason: String(cString: strerror(failure)))
        }
    }

    private func jsonObject(_ response: CachedResponse) -> [String: Any] {
        let decision = response.decision
        var decisionObject: [String: Any] = [
            "outcome": decision.label, "stored": decision.stored, "requestsSent": decision.requestsSent,
            "bytesReceived": decision.bytesReceived, "bytesSaved": decision.bytesSaved, "reasons": decision.reasons,
        ]
        decisionObject["notStoredReason"] = decision.notStoredReason
        decisionObject["currentAge"] = decision.currentAge
        decisionObject["freshnessLifetime"] = decision.freshnessLifetime?.seconds
        var object: [String: Any] = [
            "url": response.url.absoluteString, "status": response.status.code,
            "headers": response.headerFields.map { [$0.name.rawName, $0.value] }, "decision": decisionObject,
        ]
        if let text = String(data: response.body, encoding: .utf8) {
            object["body"] = text
        } else {
            object["body"] = response.body.base64EncodedString()
            object["bodyEncoding"] = "base64"
        }
        return object
    }
}
