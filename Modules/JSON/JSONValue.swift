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
        return document.bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[node.start..<node.end]), as: UTF8.self) }
    }

    /// Where the value's text is in the document's ``JSONDocument/bytes``, as offsets from their start.
    public var byteRange: Range<Int> { node.start ..< node.end }

    /// A string's value, escapes resolved; `nil` for other kinds.
    public var string: String? { document.withNodeView { $0.string(of: index) } }

    /// A boolean's value; `nil` for other kinds.
    public var bool: Bool? {
        guard node.kind == .bool else { return nil }
        return document.bytes[document.bytes.startIndex + node.start] == UInt8(ascii: "t")
    }

    /// A number's value when it is an integer that fits in `Int`; `nil` otherwise.
    public var integer: Int? { document.withNodeView { $0.integer(of: index) } }
    /// A number's value; `nil` for other kinds.
    public var double: Double? { node.kind == .number ? Double(rawText) : nil }

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
        guard node.kind == .object else { return [] }
        var result: [(name: String, value: JSONValue)] = []
        var child = node.firstChild
        while child >= 0 {
            let candidate = document.nodes[child]
            let name = candidate.nameStart < 0 ? "" : document.withNodeView {
                $0.decoded(candidate.nameStart, candidate.nameEnd, hasEscapes: candidate.nameHasEscapes)
            }
            result.append((name, JSONValue(document: document, index: child)))
            child = candidate.nextSibling
        }
        return result
    }

    /// The first member called `name`, if this is an object that records it.
    public func member(_ name: String) -> JSONValue? {
        var name = name
        let found = name.withUTF8 { target in document.withNodeView { $0.member(of: index, named: target) } }
        return found >= 0 ? JSONValue(document: document, index: found) : nil
    }

    /// The value at `path` below this one.
    public func value(at path: JSONPath) -> JSONValue? {
        var current: JSONValue? = self
        for component in path.components { current = current?.member(component) }
        return current
    }
}

extension JSONValue {
    /// The value's UTF-8 text without insignificant whitespace (a pretty-printed item on one
    /// line): every byte of every token kept as the document has it, numbers and escapes included.
    /// Without whitespace in the document, a slice of it (sharing its storage, no copy).
    public var compactBytes: Data { document.withNodeView { compactBytes(of: index, in: $0) } }

    /// ``compactBytes`` of each recorded element of an array, in order.
    public var elementsCompactBytes: [Data] {
        document.withNodeView { view in
            var result: [Data] = []
            result.reserveCapacity(view.nodes[index].childCount)
            var child = view.nodes[index].kind == .array ? view.nodes[index].firstChild : -1
            while child >= 0 {
                result.append(compactBytes(of: child, in: view))
                child = view.nodes[child].nextSibling
            }
            return result
        }
    }

    private func compactBytes(of node: Int, in view: JSONNodeView) -> Data {
        let (start, end) = (view.nodes[node].start, view.nodes[node].end)
        guard document.hasInnerWhitespace else {
            return document.bytes[document.bytes.startIndex + start ..< document.bytes.startIndex + end]
        }
        return JSONText.compact(view.text(start, end))
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
