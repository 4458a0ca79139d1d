import Foundation
import TerminalText

/// A JSON body re-indented for a terminal, the way jq shows it: two spaces a level, members in
/// the server's order, strings and numbers as sent (escapes stay escapes), optionally coloured
/// (keys bold blue, strings green, null grey). What JSON allows raw in a string but a terminal
/// would obey (C1 controls such as U+009B, the 8-bit CSI; bidi overrides; U+2028) becomes a JSON
/// escape (``TerminalText/jsonEscaped(_:)``), so the text shown is still the same JSON.
struct JSONPrettyPrinter {
    var colored: Bool

    /// The pretty text and a final line break, or `nil` when `body` is not JSON.
    func format(_ body: Data) -> Data? {
        guard !body.isEmpty, (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil else { return nil }
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var containers: [UInt8] = []
        var expectsKey = false
        var index = 0

        func newline() {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: containers.count * 2))
        }
        func emit(_ token: ArraySlice<UInt8>, color: String?) {
            let shown = token.allSatisfy { $0 < 0x80 } ? Array(token) : Array(TerminalText.jsonEscaped(String(decoding: token, as: UTF8.self)).utf8)
            guard colored, let color else { return output.append(contentsOf: shown) }
            output.append(contentsOf: Array("\u{1B}[\(color)m".utf8) + shown + Array("\u{1B}[0m".utf8))
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var next = position + 1
            while next < bytes.count, Self.isWhitespace(bytes[next]) { next += 1 }
            return next < bytes.count ? bytes[next] : nil
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case _ where Self.isWhitespace(byte):
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                output.append(byte)
                if nextSignificant(after: index) == close {
                    output.append(close)
                    while bytes[index] != close { index += 1 }
                } else {
                    containers.append(byte)
                    expectsKey = byte == UInt8(ascii: "{")
                    newline()
                }
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                containers.removeLast()
                newline()
                output.append(byte)
                index += 1
            case UInt8(ascii: ","):
                output.append(byte)
                expectsKey = containers.last == UInt8(ascii: "{")
                newline()
                index += 1
            case UInt8(ascii: ":"):
                output.append(contentsOf: [byte, 0x20])
                expectsKey = false
                index += 1
            case UInt8(ascii: "\""):
                var end = index + 1
                while bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                emit(bytes[index...end], color: expectsKey ? "34;1" : "32")
                index = end + 1
            default:
                var end = index
                while end < bytes.count, !Self.isDelimiter(bytes[end]) { end += 1 }
                emit(bytes[index..<end], color: byte == UInt8(ascii: "n") ? "1;30" : nil)
                index = end
            }
        }
        output.append(0x0A)
        return Data(output)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    /// Whether a terminal should get colours: not when `NO_COLOR` is set to anything
    /// (no-color.org) or the terminal is `dumb`.
    static func colorsWanted(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }

    /// Whether a `Content-Type` names JSON (`application/json`, `application/problem+json`, …).
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
