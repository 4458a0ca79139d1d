import Foundation

/// The key of one item in an ``ItemCollection``: an integer (`/posts/7`) or a string
/// (`/users/usr_k3j9x0aa`), taken from the item's key field.
///
/// Keys order the collection, which is what keyset pagination pages through: integers by value,
/// strings by their UTF-8 bytes. Strings compare byte for byte, not by Unicode canonical
/// equivalence, because a client treats `"é"` and `"e\u{301}"` as two different ids.
enum ItemKey: Sendable {
    case integer(Int)
    case string(String)

    /// The key as it appears in a URL path segment (`7`, `usr_k3j9x0aa`, `a%20b`).
    var pathSegment: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? value
        }
    }

    /// The key as the JSON value it is in the item.
    var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        }
    }

    /// Whether the key is an integer or a string.
    var kind: ItemCollection.KeyKind {
        if case .integer = self { .integer } else { .string }
    }

    /// The key as text, for cursors and messages (`7`, `usr_k3j9x0aa`).
    var text: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }

    /// RFC 3986 unreserved characters plus the sub-delimiters a path segment may hold.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")
}

// MARK: - Equality and order

extension ItemKey: Hashable, Comparable {
    static func == (lhs: ItemKey, rhs: ItemKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .integer(let right)): left == right
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(1)
            for byte in value.utf8 { hasher.combine(byte) }
        }
    }

    /// Integers by value, strings by UTF-8 bytes; a collection never mixes the two (integers first if it did).
    static func < (lhs: ItemKey, rhs: ItemKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .integer(let right)): left < right
        case (.string(let left), .string(let right)): left.utf8.lexicographicallyPrecedes(right.utf8)
        case (.integer, .string): true
        case (.string, .integer): false
        }
    }
}
