/// The key of an item within its collection: an integer or a non-empty string, as the item's
/// key member holds it (`1` and `"1"` are different keys). Strings compare byte by byte, as
/// SQLite compares the stored keys: `"café"` with a precomposed é and with e + U+0301 are two
/// keys (Swift's own `==` would call them equal).
public enum ItemKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    case integer(Int), string(String)

    public static func == (lhs: ItemKey, rhs: ItemKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .integer(let right)): left == right
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(1)
            for byte in value.utf8 { hasher.combine(byte) }
        }
    }

    /// Integers by value, strings byte by byte; integers first, in a collection that mixes the two.
    public static func < (lhs: ItemKey, rhs: ItemKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .integer(let right)): left < right
        case (.string(let left), .string(let right)): left.utf8.lexicographicallyPrecedes(right.utf8)
        case (.integer, .string): true
        case (.string, .integer): false
        }
    }

    /// The key of `value`, or `nil` when it cannot key an item (a float, an empty string, null, …).
    public init?(_ value: JSONValue) {
        guard let key = value.document.withNodeView({ ItemKey(node: value.index, in: $0) }) else { return nil }
        self = key
    }

    init?(node index: Int, in view: JSONNodeView) {
        if let integer = view.integer(of: index) {
            self = .integer(integer)
        } else if let string = view.string(of: index), !string.isEmpty {
            self = .string(string)
        } else {
            return nil
        }
    }

    /// The key as a query parameter value (`starting_after=…`).
    public var text: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }

    /// The key as messages show it: `57` or `"abc"`.
    public var description: String {
        if case .string = self { return "\"\(text)\"" }
        return text
    }
}
