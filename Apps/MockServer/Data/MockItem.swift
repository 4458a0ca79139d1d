import JSON
import Foundation

/// One item of an ``ItemCollection``: its key, its JSON object exactly as the server sends it,
/// and when it last changed.
struct MockItem: Sendable, Equatable {
    /// The value of the collection's key field.
    var key: ItemKey
    /// The item's JSON object, encoded once by the contract encoder (sorted keys), so a page is
    /// its items' bytes joined, never a re-encoding.
    var json: Data
    /// When the item last changed (whole seconds): its `Last-Modified`.
    var updatedAt: Date

    /// An item from a value; `value` must be a JSON object holding `key` in the key field.
    init(key: ItemKey, value: some Encodable, updatedAt: Date) {
        self.key = key
        self.json = APIJSON.encode(value)
        self.updatedAt = updatedAt
    }

    /// An item whose JSON text is given as it is sent (a mirror's).
    init(key: ItemKey, json: Data, updatedAt: Date) {
        self.key = key
        self.json = json
        self.updatedAt = updatedAt
    }

    /// The item's JSON object decoded for a change (PATCH merges into it).
    var members: [String: JSONTree] {
        // The bytes are this server's own encoding of an object: decoding them cannot fail.
        (try? JSONDecoder().decode([String: JSONTree].self, from: json)) ?? [:]
    }
}
