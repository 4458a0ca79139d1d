/// Remote text made safe to draw, so nothing in a post can move the cursor, change colours or
/// upset the column layout: ``TerminalText/sanitized(_:)``, and then a tab becomes a space and
/// a scalar the terminal cannot measure becomes "�".
public enum SafeText {
    /// The zero-width joiner and emoji presentation selector, dropped: terminals disagree on how
    /// wide the sequences they build are (`👩‍💻` is two cells in some, four in others), while each
    /// emoji alone has the one width `wcwidth` gives it.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool { scalar == "\u{200D}" || scalar == "\u{FE0F}" }

    /// Text for one screen line (a title, an author): line breaks become visible escapes.
    public static func line(_ text: String, width: DisplayWidth) -> String {
        let sanitized = TerminalText.sanitized(text)
        // Most lines have nothing to change: returned as they are, not rebuilt a scalar at a time.
        guard sanitized.unicodeScalars.contains(where: { $0 == "\t" || isDropped($0) || !width.isPrintable($0) }) else { return sanitized }
        var result = ""
        for scalar in sanitized.unicodeScalars where !isDropped(scalar) {
            switch scalar {
            case "\t": result.unicodeScalars.append(" ")
            case _ where !width.isPrintable(scalar): result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A body's lines, split at `\n`, `\r\n`, `\r`, U+2028 and U+2029, each made safe by ``line(_:width:)``.
    public static func lines(_ text: String, width: DisplayWidth) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { line(String($0), width: width) }
    }
}
