/// Quoted strings (RFC 9110 §5.6.4): `"…"` with `\` escaping a quote or a backslash.
public enum QuotedString {
    /// `text` as a quoted-string: quotes and backslashes escaped.
    public static func quote(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// The value of a token or a quoted-string (a parameter value), unquoted; `nil` when `text`
    /// is neither.
    public static func value(of text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        return FieldScanner.scanning(trimmed) { scanner in
            let value = scanner.current == .quote ? scanner.quotedString() : scanner.token()
            return scanner.isAtEnd ? value : nil
        }
    }
}
