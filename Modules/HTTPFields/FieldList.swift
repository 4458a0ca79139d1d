/// List-based field values (RFC 9110 §5.6.1, the `#rule`): elements separated by commas with
/// optional whitespace, where a comma inside a quoted string or a `<…>` target does not separate.
public enum FieldList {
    /// The elements of every line of a list-based field, in order, without surrounding
    /// whitespace; empty elements (`a, , b`) are dropped as the grammar asks.
    public static func elements(_ fieldValues: [String]) -> [String] { fieldValues.flatMap(elements) }

    /// Whether `text` is one token (RFC 9110 §5.6.2), as a coding's or a parameter's name is.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(FieldScanner.isTokenCharacter)
    }

    /// The elements of one field line.
    public static func elements(_ fieldValue: String) -> [String] {
        FieldScanner.scanning(fieldValue) { scanner in
            var elements: [String] = []
            while true {
                scanner.skip { $0 == .space || $0 == .tab || $0 == .comma }
                guard !scanner.isAtEnd else { return elements }
                let start = scanner.index
                scanner.skipToListSeparator()
                let element = scanner.trimmedText(from: start)
                if !element.isEmpty { elements.append(element) }
            }
        }
    }

    /// The first element of a field that should occur once but arrived as a list, such as
    /// `Age: 7200, 0` (RFC 9111 §5.1 says to use the first value).
    public static func first(_ fieldValues: [String]) -> String? {
        fieldValues.lazy.compactMap { elements($0).first }.first
    }

    /// Whether the list contains `element`, compared case-insensitively (`Vary: *`, `Connection: close`).
    public static func contains(_ element: String, in fieldValues: [String]) -> Bool {
        elements(fieldValues).contains { $0.caseInsensitiveEquals(element) }
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, as HTTP compares tokens.
    public func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8) { lower($0) == lower($1) }
    }

    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    public func trimmingWhitespace() -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        let isContent = { (scalar: Unicode.Scalar) in scalar != " " && scalar != "\t" }
        guard let first = scalars.firstIndex(where: isContent), let last = scalars.lastIndex(where: isContent) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return string }
        return String(scalars[first...last])
    }
}

func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
