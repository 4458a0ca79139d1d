/// Text from the network made safe for a terminal: control characters (escape sequences
/// included) become visible `\u{..}` escapes, so a remote string cannot move the cursor,
/// change colours or retitle the window. So do bidirectional overrides and isolates, which would
/// reorder the rest of the line (a title could disguise itself or the columns after it), and
/// U+2028 and U+2029, line breaks terminals do not break on and draw each their own way.
public enum TerminalText {
    /// Whether ``sanitized(_:keepingLineBreaks:)`` escapes `scalar` (unless it is kept).
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Whether `scalar` is a control character (general category Cc): U+0000–U+001F and
    /// U+007F–U+009F, a set Unicode's stability policy fixes, so no property lookup is needed
    /// (that lookup was a twentieth of the reader's time a screen).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }

    /// `text` with every control character, bidi override or isolate, U+2028 and U+2029 but the tab
    /// escaped; with `keepingLineBreaks`, line feeds and the carriage return of a CRLF stay too.
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Most text has nothing to escape: it is returned as it is, not rebuilt a scalar at a time.
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
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
