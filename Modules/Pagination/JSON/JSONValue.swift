import Foundation

/// A recorded value of a ``JSONDocument``: read its kind, its scalar, its members or elements.
public struct JSONValue: Sendable {
    /// The kinds of JSON values.
    public enum Kind: UInt8, Sendable, Equatable {
        case object, array, string, number, bool, null

        /// The word used in messages: "an object", "a string", …
        public var phrase: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    let document: JSONDocument
    let index: Int

    private var node: JSONNode { document.nodes[index] }

    public var kind: Kind { node.kind }

    /// Elements of an array or members of an object, counted whether or not they are recorded.
    public var count: Int { node.childCount }

    /// The value's text exactly as it appears in the document.
    public var rawText: String {
        let node = node
        return String(decoding: document.bytes[document.bytes.startIndex + node.start ..< document.bytes.startIndex + node.end], as: UTF8.self)
    }

    /// A string's value, escapes resolved; `nil` for other kinds.
    public var string: String? {
        guard node.kind == .string else { return nil }
        return decodedString(node.start + 1, node.end - 1, hasEscapes: node.hasEscapes)
    }

    /// A boolean's value; `nil` for other kinds.
    public var bool: Bool? {
        guard node.kind == .bool else { return nil }
        return document.bytes[document.bytes.startIndex + node.start] == UInt8(ascii: "t")
    }

    /// A number's value when it is an integer that fits in `Int`; `nil` otherwise.
    public var integer: Int? {
        let node = node
        guard node.kind == .number else { return nil }
        return document.bytes.withUnsafeBytes { buffer in
            Int(decimalDigits: UnsafeRawBufferPointer(rebasing: buffer[node.start..<node.end]))
        }
    }

    /// A number's value; `nil` for other kinds.
    public var double: Double? {
        node.kind == .number ? Double(rawText) : nil
    }

    /// The recorded elements of an array (empty beyond the recorded depth, or for other kinds).
    public var elements: [JSONValue] {
        let node = node
        guard node.kind == .array else { return [] }
        var result: [JSONValue] = []
        result.reserveCapacity(node.childCount)
        var child = node.firstChild
        while child >= 0 {
            result.append(JSONValue(document: document, index: child))
            child = document.nodes[child].nextSibling
        }
        return result
    }

    /// The recorded members of an object, in document order.
    public var members: [(name: String, value: JSONValue)] {
        node.kind == .object ? children : []
    }

    /// The first member called `name`, if this is an object that records it.
    public func member(_ name: String) -> JSONValue? {
        guard node.kind == .object else { return nil }
        var name = name
        return name.withUTF8 { target in
            var child = node.firstChild
            while child >= 0 {
                let candidate = document.nodes[child]
                if nameEquals(candidate, target) { return JSONValue(document: document, index: child) }
                child = candidate.nextSibling
            }
            return nil
        }
    }

    /// The value at `path` below this one.
    public func value(at path: JSONPath) -> JSONValue? {
        var current: JSONValue? = self
        for component in path.components { current = current?.member(component) }
        return current
    }

    // MARK: Helpers

    private var children: [(name: String, value: JSONValue)] {
        var result: [(name: String, value: JSONValue)] = []
        var child = node.firstChild
        while child >= 0 {
            let candidate = document.nodes[child]
            let name = candidate.nameStart >= 0 ? decodedString(candidate.nameStart, candidate.nameEnd, hasEscapes: candidate.nameHasEscapes) : ""
            result.append((name, JSONValue(document: document, index: child)))
            child = candidate.nextSibling
        }
        return result
    }

    private func nameEquals(_ candidate: JSONNode, _ target: UnsafeBufferPointer<UInt8>) -> Bool {
        guard candidate.nameStart >= 0 else { return false }
        if candidate.nameHasEscapes {
            return decodedString(candidate.nameStart, candidate.nameEnd, hasEscapes: true).utf8.elementsEqual(target)
        }
        guard candidate.nameEnd - candidate.nameStart == target.count else { return false }
        return document.bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            target.isEmpty || memcmp(buffer.baseAddress! + candidate.nameStart, target.baseAddress!, target.count) == 0
        }
    }

    private func decodedString(_ start: Int, _ end: Int, hasEscapes: Bool) -> String {
        document.bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String in
            let slice = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            return hasEscapes ? JSONStringEscapes.decode(slice) : String(decoding: slice, as: UTF8.self)
        }
    }
}

extension JSONValue {
    /// The value's UTF-8 text without insignificant whitespace (a pretty-printed item on one
    /// line): every byte of every token kept as the document has it, numbers and escapes included.
    /// Without whitespace in the document, a slice of it (sharing its storage, no copy).
    public var compactBytes: Data {
        let node = document.nodes[index]
        guard document.hasInnerWhitespace else {
            let start = document.bytes.startIndex
            return document.bytes[start + node.start ..< start + node.end]
        }
        return document.bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Data in
            let slice = UnsafeRawBufferPointer(rebasing: buffer[node.start..<node.end])
            var compact = Data(count: slice.count)
            let length = compact.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Int in
                var written = 0
                var inString = false
                var escaped = false
                for byte in slice {
                    if inString {
                        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                        continue
                    } else if byte == UInt8(ascii: "\"") {
                        inString = true
                    }
                    output[written] = byte
                    written += 1
                }
                return written
            }
            compact.count = length
            return compact
        }
    }
}

extension Int {
    /// The integer a JSON number's text states, read from its bytes; `nil` for a fraction, an
    /// exponent, or a value outside `Int`.
    init?(decimalDigits text: UnsafeRawBufferPointer) {
        guard !text.isEmpty else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard index < text.count else { return nil }
        var value = 0
        while index < text.count {
            let digit = Int(text[index]) - 0x30
            guard digit >= 0, digit <= 9 else { return nil }
            let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowMultiply, !overflowAdd else { return nil }
            value = next
            index += 1
        }
        self = value
    }
}
