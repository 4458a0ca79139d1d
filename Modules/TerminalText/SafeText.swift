/// Remote text made safe to draw: nothing in a post can move the cursor, change colours or
/// upset the column layout.
///
/// ``TerminalText/sanitized(_:)`` turns control characters (escape sequences included) into
/// visible `\u{..}` escapes. On top of that a tab becomes a space; a scalar the terminal
/// cannot measure becomes "�"; and the zero-width joiner and emoji presentation selector
/// are dropped, because terminals disagree on how wide the sequences they build are
/// (`👩‍💻` is two cells in some, four in others) while each emoji alone has one agreed width.
public enum SafeText {
    /// Scalars dropped so every terminal lays the text out as `wcwidth` measures it.
    static let droppedScalars: Set<Unicode.Scalar> = ["\u{200D}", "\u{FE0F}"]

    /// Text for one screen line (a title, an author): line breaks become visible escapes.
    public static func line(_ text: String, width: DisplayWidth) -> String {
        var result = ""
        for scalar in TerminalText.sanitized(text).unicodeScalars where !droppedScalars.contains(scalar) {
            switch scalar {
            case "\t": result.unicodeScalars.append(" ")
            case _ where !width.isPrintable(scalar): result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text of several lines (a body): split at line breaks (`\n`, `\r\n`, `\r`, U+2028,
    /// U+2029), each line made safe with ``line(_:width:)``.
    public static func lines(_ text: String, width: DisplayWidth) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { line(String($0), width: width) }
    }
}
