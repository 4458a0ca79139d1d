import CJSONScan

/// The recursive-descent reader behind ``JSONDocument``: checks RFC 8259 syntax and UTF-8 in
/// one pass over the bytes and records the values down to a given depth. Skimming, it checks
/// the structure only and moves through strings without looking at what is inside them.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let recordedDepth: Int
    private let skimming: Bool
    private var nodes: [JSONNode] = []
    /// Whether any whitespace stands between the tokens of the root value (not around it).
    private(set) var hasInnerWhitespace = false

    init(_ bytes: UnsafeBufferPointer<UInt8>, recordedDepth: Int, skimming: Bool = false) {
        self.bytes = bytes
        self.recordedDepth = recordedDepth
        self.skimming = skimming
        // About one recorded value per 64 bytes in a page of small objects: room for them up
        // front rather than a dozen reallocations of the growing array. A skim records a few.
        if !skimming { nodes.reserveCapacity(bytes.count / 64) }
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> [JSONNode] {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace(inside: false)
        guard index < bytes.count else { throw error(index == 0 ? "the body is empty" : "no JSON value, only whitespace") }
        _ = try parseValue(depth: 0, name: nil)
        skipWhitespace(inside: false)
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return nodes
    }

    // MARK: Values

    private typealias Name = (start: Int, end: Int, hasEscapes: Bool)

    /// Parses one value; returns its node index, or -1 when it is deeper than recorded.
    private mutating func parseValue(depth: Int, name: Name?) throws(JSONSyntaxError) -> Int {
        guard depth <= JSONDocument.maximumNesting else { throw error("nested more than \(JSONDocument.maximumNesting) levels deep") }
        var nodeIndex = -1
        if depth <= recordedDepth {
            nodeIndex = nodes.count
            var node = JSONNode(kind: .null, start: index, end: index)
            if let name { (node.nameStart, node.nameEnd, node.nameHasEscapes) = name }
            nodes.append(node)
        }
        let kind: JSONValue.Kind
        var hasEscapes = false
        var count = 0
        switch bytes[index] {
        case UInt8(ascii: "{"): kind = .object; count = try parseObject(depth: depth, parent: nodeIndex)
        case UInt8(ascii: "["): kind = .array; count = try parseArray(depth: depth, parent: nodeIndex)
        case UInt8(ascii: "\""): kind = .string; hasEscapes = try skimming ? skipString() : scanString()
        case UInt8(ascii: "t"): kind = .bool; try literal("true")
        case UInt8(ascii: "f"): kind = .bool; try literal("false")
        case UInt8(ascii: "n"): kind = .null; try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number; try scanNumber()
        default: throw error("unexpected \(describe(bytes[index]))")
        }
        if nodeIndex >= 0 {
            nodes[nodeIndex].kind = kind
            nodes[nodeIndex].end = index
            nodes[nodeIndex].hasEscapes = hasEscapes
            nodes[nodeIndex].childCount = count
        }
        return nodeIndex
    }

    private mutating func parseObject(depth: Int, parent: Int) throws(JSONSyntaxError) -> Int {
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return 0 }
        var count = 0
        var previous = -1
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let nameStart = index + 1
            let nameHasEscapes = try skimming ? skipString() : scanString()
            let name: Name = (nameStart, index - 1, nameHasEscapes)
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after a member name") }
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an object") }
            let child = try parseValue(depth: depth + 1, name: name)
            link(child, parent: parent, previous: &previous)
            count += 1
            skipWhitespace()
            guard consume(UInt8(ascii: ",")) else {
                guard consume(UInt8(ascii: "}")) else { throw error(index < bytes.count ? "expected ',' or '}' in an object" : "the text ends inside an object") }
                return count
            }
            skipWhitespace()
        }
    }

    private mutating func parseArray(depth: Int, parent: Int) throws(JSONSyntaxError) -> Int {
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return 0 }
        var count = 0
        var previous = -1
        while true {
            guard index < bytes.count else { throw error("the text ends inside an array") }
            let child = try parseValue(depth: depth + 1, name: nil)
            link(child, parent: parent, previous: &previous)
            count += 1
            skipWhitespace()
            guard consume(UInt8(ascii: ",")) else {
                guard consume(UInt8(ascii: "]")) else { throw error(index < bytes.count ? "expected ',' or ']' in an array" : "the text ends inside an array") }
                return count
            }
            skipWhitespace()
        }
    }

    private mutating func link(_ child: Int, parent: Int, previous: inout Int) {
        guard child >= 0, parent >= 0 else { return }
        if previous >= 0 { nodes[previous].nextSibling = child } else { nodes[parent].firstChild = child }
        previous = child
    }

    // MARK: Scalars

    /// Moves past a string (the index is on its opening quote) without checking its text: to the
    /// next quote or backslash, sixteen bytes at a time (CJSONScan; a skim is on the way from one
    /// page's answer to the next page's request). Escapes are checked (they are few, and a value
    /// read from the skimmed document is decoded). Whether it has escapes.
    private mutating func skipString() throws(JSONSyntaxError) -> Bool {
        guard let base = bytes.baseAddress else { throw error("the text ends inside a string") }
        let end = bytes.count
        var at = index + 1
        var hasEscapes = false
        while at < end {
            at += fresh_json_span_to_quote_or_backslash(base + at, end - at)
            guard at < end else { break }
            switch base[at] {
            case UInt8(ascii: "\""):
                index = at + 1
                return hasEscapes
            case UInt8(ascii: "\\"):
                hasEscapes = true
                index = at
                try scanEscape()
                at = index
            default: at += 1
            }
        }
        index = end
        throw error("the text ends inside a string")
    }

    /// Moves past a string (the index is on its opening quote); whether it has escapes.
    ///
    /// The position is a local here, not ``index``: a stored property of the parser would be
    /// written back to memory at every step, and strings are most of a page's bytes.
    private mutating func scanString() throws(JSONSyntaxError) -> Bool {
        guard let base = bytes.baseAddress else { throw error("the text ends inside a string") }
        let end = bytes.count
        var at = index + 1
        var hasEscapes = false
        while at < end {
            at = Self.endOfPlainText(base, from: at, to: end)
            guard at < end else { break }
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                index = at + 1
                return hasEscapes
            }
            index = at
            if byte >= 0x80 {
                try scanUTF8Sequence()
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try scanEscape()
            } else {
                throw error("a control character (\(describe(byte))) inside a string")
            }
            at = index
        }
        index = at
        throw error("the text ends inside a string")
    }

    private mutating func scanEscape() throws(JSONSyntaxError) {
        guard index + 1 < bytes.count else { throw error("the text ends inside a string") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard index + 6 <= bytes.count, (2..<6).allSatisfy({ Self.isHexDigit(bytes[index + $0]) }) else {
                throw error("a \\u escape needs four hex digits")
            }
            index += 6
        default: throw error("an invalid escape in a string")
        }
    }

    /// Whether a word of eight bytes is text a string holds as it is: ASCII, and no quote,
    /// backslash or control character. A byte of `word ^ pattern` is zero where it matches, and
    /// subtracting one from each byte borrows into a zero's high bit, as subtracting 0x20 does
    /// into a byte below it: the usual test for a byte below a value, where the byte's own high
    /// bit is clear.
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64) -> Bool {
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let special = (quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word
        return (special | word) & highBits == 0
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Where the text of a string that needs no closer look ends: plain ASCII (eight bytes at a
    /// time while it lasts) and well-formed two- and three-byte UTF-8 sequences, in one loop, as
    /// text in most scripts other than Latin mixes them word by word. It stops at a quote, a
    /// backslash, a control character, the end, or a byte ``scanUTF8Sequence()`` must look at
    /// (a four-byte sequence, or anything invalid).
    @inline(__always)
    private static func endOfPlainText(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var at = start
        while at < end {
            let lead = base[at]
            if lead < 0x80 {
                if at + 8 <= end, isPlainASCII(UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)) {
                    at += 8
                    continue
                }
                guard lead >= 0x20, lead != UInt8(ascii: "\""), lead != UInt8(ascii: "\\") else { return at }
                at += 1
            } else if lead >= 0xE0, lead <= 0xEF, at + 3 <= end {
                let second = base[at + 1]
                // No overlong forms (E0 needs A0–BF next), no surrogates (ED needs 80–9F next).
                guard second & 0xC0 == 0x80, base[at + 2] & 0xC0 == 0x80,
                      lead != 0xE0 || second >= 0xA0, lead != 0xED || second < 0xA0 else { return at }
                at += 3
            } else if lead >= 0xC2, lead <= 0xDF, at + 2 <= end, base[at + 1] & 0xC0 == 0x80 {
                at += 2
            } else {
                return at
            }
        }
        return at
    }

    /// One multi-byte UTF-8 sequence (RFC 3629): no overlong forms, no surrogates, ≤ U+10FFFF.
    private mutating func scanUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))")
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]),
              (2..<length).allSatisfy({ (0x80...0xBF).contains(bytes[index + $0]) }) else {
            throw error("invalid UTF-8 (a broken sequence starting with byte 0x\(String(lead, radix: 16, uppercase: true)))")
        }
        index += length
    }

    private mutating func scanNumber() throws(JSONSyntaxError) {
        _ = consume(UInt8(ascii: "-"))
        // A 0 stands alone: no leading zeros.
        if !consume(UInt8(ascii: "0")), digits() == 0 { throw error("a number needs digits") }
        if consume(UInt8(ascii: ".")), digits() == 0 { throw error("a number needs digits after '.'") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count, (0..<length).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else {
            throw error("unexpected \(describe(bytes[index]))")
        }
        index += length
    }

    // MARK: Helpers

    private mutating func skipWhitespace(inside: Bool = true) {
        let start = index
        defer { if inside && index > start { hasInnerWhitespace = true } }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        let offset = min(index, bytes.count)
        let line = 1 + bytes[..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        return JSONSyntaxError(offset: offset, line: line, reason: reason)
    }
}
