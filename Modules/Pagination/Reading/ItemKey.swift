/// The key of an item within its collection: an integer or a non-empty string, as the item's
/// key member holds it (`1` and `"1"` are different keys). Strings compare byte by byte, as
/// SQLite compares the stored keys: `"café"` with a precomposed é and with e + U+0301 are two
/// keys (Swift's own `==` would call them equal).
public enum ItemKey: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case string(String)

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

    /// The key of `value`, or `nil` when it cannot key an item (a float, an empty string, null,
    /// an object, …).
    public init?(_ value: JSONValue) {
        switch value.kind {
        case .number:
            guard let integer = value.integer else { return nil }
            self = .integer(integer)
        case .string:
            guard let string = value.string, !string.isEmpty else { return nil }
            self = .string(string)
        default:
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
        switch self {
        case .integer(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}
