import Foundation

/// Builds a JSON object from members some of whose values are already JSON bytes (a page's
/// items), writing the keys sorted as the contract encoder does, so a page built here has the
/// bytes `JSONEncoder.api()` would give the same value.
struct JSONObjectBuilder {
    private var members: [(key: String, value: Data)] = []

    /// Adds a member whose value is JSON bytes as they are.
    mutating func add(_ key: String, raw: Data) {
        members.append((key, raw))
    }

    /// Adds a member with an encodable value (a string, number, boolean, or `JSONTree.null`).
    mutating func add(_ key: String, _ value: some Encodable) {
        members.append((key, APIJSON.encode(value)))
    }

    /// The object's bytes, keys in ascending order.
    var data: Data {
        var data = Data("{".utf8)
        for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(APIJSON.encode(member.key))
            data.append(UInt8(ascii: ":"))
            data.append(member.value)
        }
        data.append(UInt8(ascii: "}"))
        return data
    }

    /// A JSON array of items already encoded.
    static func array(of items: some Sequence<MockItem>) -> Data {
        var data = Data("[".utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            data.append(item.json)
        }
        data.append(UInt8(ascii: "]"))
        return data
    }
}
