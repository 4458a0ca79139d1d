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
}
