import Foundation
import JSON

/// The key of one item in an ``ItemCollection`` is the sync's own ``ItemKey``: an integer
/// (`/posts/7`) or a string (`/users/usr_k3j9x0aa`), taken from the item's key field, equal
/// byte for byte, not by Unicode canonical equivalence (a client treats `"é"` and `"e\u{301}"`
/// as two different ids).
/// Keys order the collection (``ItemKey``'s `<`), which is what keyset pagination pages through.
extension ItemKey {
    /// The key as it appears in a URL path segment (`7`, `usr_k3j9x0aa`, `a%20b`).
    var pathSegment: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? value
        }
    }

    /// The key as the JSON value it is in the item.
    var json: JSONTree {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        }
    }

    /// Whether the key is an integer or a string.
    var kind: ItemCollection.KeyKind {
        if case .integer = self { .integer } else { .string }
    }

    /// RFC 3986 unreserved characters plus the sub-delimiters a path segment may hold.
    private static let segmentCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")
}
