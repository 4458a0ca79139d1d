import Foundation

/// A JSON text, checked in full (unless only skimmed, see ``init(skimming:recordedDepth:)``)
/// and indexed near the top: every value down to ``recordedDepth`` is recorded with its byte
/// range, so a page's envelope (`next`, `meta.next_cursor`, `has_more`, …), its items and each
/// item's key can be read without building a Swift value for the whole body. Deeper values are
/// checked (syntax, UTF-8) but not recorded.
public struct JSONDocument: Sendable {
    /// How deep values are recorded: the root is 0, `{"hits": {"hits": [{"id": 1}]}}` reaches
    /// the item's `id` at 4.
    public static let recordedDepth = 4
    /// Deeper nesting than this is refused (a guard against stack exhaustion).
    public static let maximumNesting = 512

    /// The text as received.
    public let bytes: Data
    let nodes: [JSONNode]
    /// Whether whitespace stands anywhere between the root value's tokens (a pretty-printed
    /// body); without any, every value's text is already compact.
    let hasInnerWhitespace: Bool

    /// Parses and checks `bytes`: JSON syntax (RFC 8259) and UTF-8, recording values down to
    /// `recordedDepth`. A leading byte order mark is skipped.
    public init(_ bytes: Data, recordedDepth: Int = JSONDocument.recordedDepth) throws(JSONSyntaxError) {
        try self.init(bytes, recordedDepth: recordedDepth, skimming: false)
    }

    /// Reads `bytes` quickly, for a few members near the top (a page's next cursor, say): the
    /// structure is followed, but what stands inside strings is not checked (UTF-8, control
    /// characters, escapes), so text that ``init(_:recordedDepth:)`` would refuse may pass here.
    public init(skimming bytes: Data, recordedDepth: Int) throws(JSONSyntaxError) {
        try self.init(bytes, recordedDepth: recordedDepth, skimming: true)
    }

    private init(_ bytes: Data, recordedDepth: Int, skimming: Bool) throws(JSONSyntaxError) {
        self.bytes = bytes
        let parsed = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Result<([JSONNode], Bool), JSONSyntaxError> in
            var parser = JSONParser(buffer.bindMemory(to: UInt8.self), recordedDepth: recordedDepth, skimming: skimming)
            return Result { () throws(JSONSyntaxError) in (try parser.parseDocument(), parser.hasInnerWhitespace) }
        }
        (nodes, hasInnerWhitespace) = try parsed.get()
    }

    /// The top-level value.
    public var root: JSONValue { JSONValue(document: self, index: 0) }
    /// The value at `path` from the root, if every step exists.
    public func value(at path: JSONPath) -> JSONValue? { root.value(at: path) }
}

/// Why a text is not JSON: what was found and where (a byte offset and a line).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var reason: String

    public var description: String { "\(reason) at line \(line), byte \(offset)" }
}

/// One recorded value: its kind, its bytes, its place in the tree.
struct JSONNode: Sendable {
    var kind: JSONValue.Kind
    /// Byte range of the value (strings include their quotes).
    var start: Int
    var end: Int
    /// For an object member, the byte range of its name between the quotes.
    var nameStart = -1
    var nameEnd = -1
    var nameHasEscapes = false
    var hasEscapes = false
    /// Index of the first recorded child and of the next recorded sibling, -1 for none.
    var firstChild = -1
    var nextSibling = -1
    /// Elements or members, counted even beyond the recorded depth.
    var childCount = 0
}
