/// Text from the network made safe for a terminal: control characters (escape sequences
/// included) become visible `\u{..}` escapes, so a remote string cannot move the cursor,
/// change colours or retitle the window. So do bidirectional overrides and isolates, which would
/// reorder the rest of the line (a title could disguise itself or the columns after it), and
/// U+2028 and U+2029, line breaks terminals do not break on and draw each their own way.
public enum TerminalText {
    /// Whether ``sanitized(_:keepingLineBreaks:)`` escapes `scalar` (unless it is kept).
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `text` with every control character, bidi override or isolate, U+2028 and U+2029 but the tab
    /// escaped; with `keepingLineBreaks`, line feeds and the carriage return of a CRLF stay too.
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            let kept = scalar == "\t" || keepingLineBreaks && (scalar == "\n" || scalar == "\r" && next == "\n")
            if isEscaped(scalar) && !kept {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// JSON text as a terminal may show it: each scalar ``sanitized(_:keepingLineBreaks:)`` would
    /// escape, but JSON's whitespace (tab, line feed, carriage return), written as a JSON escape
    /// (`\u009b`); valid JSON holds such scalars only in strings, so the text keeps its meaning.
    public static func jsonEscaped(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { isEscaped($0) && !["\t", "\n", "\r"].contains($0) }) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if isEscaped(scalar) && !["\t", "\n", "\r"].contains(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
