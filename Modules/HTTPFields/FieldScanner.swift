/// A reader of one field value's bytes: the lexical pieces every RFC 9110 field grammar is
/// built from (tokens, quoted strings, optional whitespace, delimiters), so that ``FieldList``,
/// ``FieldDirectives`` and ``LinkField`` agree on them. It reads the UTF-8 bytes in place:
/// some of its grammars run on every cache hit.
struct FieldScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    static func scanning<Result>(_ text: some StringProtocol, _ body: (inout FieldScanner) -> Result) -> Result {
        var string = String(text)
        return string.withUTF8 { bytes in
            var scanner = FieldScanner(bytes: bytes)
            return body(&scanner)
        }
    }

    // MARK: Position

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { isAtEnd ? nil : bytes[index] }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Skips spaces and tabs (OWS, RFC 9110 §5.6.3).
    mutating func skipWhitespace() { skip { $0 == .space || $0 == .tab } }

    mutating func skip(while predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    /// Moves to the next list separator (a comma outside quoted strings and `<…>`), or the end.
    mutating func skipToListSeparator() {
        while let byte = current, byte != .comma {
            if byte == .quote { _ = quotedString() } else if byte == .lessThan { skipAngleBrackets() } else { index += 1 }
        }
    }

    // MARK: Pieces

    /// A token (RFC 9110 §5.6.2), or `nil` (nothing consumed) when none starts here.
    mutating func token() -> String? {
        let start = index
        skip(while: Self.isTokenCharacter)
        return index > start ? string(start..<index) : nil
    }

    /// A token, lower-cased (names of directives and parameters compare case-insensitively).
    mutating func lowercasedToken() -> String? {
        let start = index
        skip(while: Self.isTokenCharacter)
        guard index > start else { return nil }
        return String(unsafeUninitializedCapacity: index - start) { buffer in
            for offset in 0..<(index - start) { buffer[offset] = lower(bytes[start + offset]) }
            return index - start
        }
    }

    /// A quoted-string (RFC 9110 §5.6.4) with its quoted-pairs resolved, or `nil` (nothing
    /// consumed) when none starts here. An unterminated string runs to the end of the value.
    mutating func quotedString() -> String? {
        guard current == .quote else { return nil }
        index += 1
        var unquoted: [UInt8] = []
        while let byte = current, byte != .quote {
            if byte == .backslash, index + 1 < bytes.count { index += 1 }
            unquoted.append(bytes[index])
            index += 1
        }
        index = min(index + 1, bytes.count)
        return String(decoding: unquoted, as: UTF8.self)
    }

    /// The text between `<` and `>` (a Link target); `nil` unless a closed one starts here.
    mutating func angleBracketed() -> String? {
        guard current == .lessThan else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != .greaterThan { end += 1 }
        guard end < bytes.count else { return nil }
        index = end + 1
        return string(start..<end)
    }

    /// The bytes from `start` to the current position, without surrounding whitespace.
    func trimmedText(from start: Int) -> String {
        var lower = start
        var upper = index
        while lower < upper, bytes[lower] == .space || bytes[lower] == .tab { lower += 1 }
        while upper > lower, bytes[upper - 1] == .space || bytes[upper - 1] == .tab { upper -= 1 }
        return string(lower..<upper)
    }

    private mutating func skipAngleBrackets() {
        index += 1
        skip { $0 != .greaterThan }
        index = min(index + 1, bytes.count)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    // MARK: Character classes

    /// tchar (RFC 9110 §5.6.2): visible ASCII except the delimiters `"(),/:;<=>?@[\]{}`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        guard byte > 0x20, byte < 0x7F else { return false }
        return switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""),
             UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="),
             UInt8(ascii: "{"), UInt8(ascii: "}"):
            false
        default: true
        }
    }
}

extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let comma = UInt8(ascii: ",")
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
}
