/// Text from the network made safe for a terminal: control characters (escape sequences
/// included) become visible `\u{..}` escapes, so a remote string cannot move the cursor,
/// change colours or retitle the window.
public enum TerminalText {
    /// `text` with every control character but the tab escaped; with `keepingLineBreaks`, line
    /// feeds and the carriage return of a CRLF stay too (a body printed as lines).
    public static func sanitized(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            let kept = scalar == "\t" || keepingLineBreaks && (scalar == "\n" || scalar == "\r" && next == "\n")
            if scalar.properties.generalCategory == .control && !kept {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
