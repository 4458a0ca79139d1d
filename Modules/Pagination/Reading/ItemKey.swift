/// The key of an item within its collection: an integer or a non-empty string, as the item's
/// key member holds it (`1` and `"1"` are different keys).
public enum ItemKey: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case string(String)

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
