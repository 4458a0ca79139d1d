/// Text from the network made safe for a terminal: control characters (escape sequences
/// included) become visible `\u{..}` escapes, so a remote string cannot move the cursor,
/// change colours or retitle the window. Bidirectional overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069) are escaped too: they would reorder what follows them on the line, so a
/// title could disguise itself or the columns after it. So are the Unicode line and paragraph
/// separators (U+2028, U+2029), line breaks that terminals do not break on and draw each their
/// own way (or not at all), so a title shows where it had one as it shows a `\n`.
public enum TerminalText {
    /// Whether ``sanitized(_:keepingLineBreaks:)`` escapes `scalar` (unless it is kept): control
    /// characters, bidirectional overrides and isolates, U+2028 and U+2029.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `text` with every control character (and bidi override, and U+2028/U+2029) but the tab escaped; with `keepingLineBreaks`, line
    /// feeds and the carriage return of a CRLF stay too (a body printed as lines).
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

    /// JSON text as a terminal may show it: every scalar ``sanitized(_:keepingLineBreaks:)``
    /// would escape (but the tab, line feed and carriage return JSON uses as whitespace) written
    /// as a JSON escape (`\u009b`, `\u202e`). Valid JSON holds such scalars only inside strings
    /// (raw, which JSON allows for all but C0), so the text stays valid JSON with the same meaning,
    /// while nothing in it can drive the terminal.
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
