import Foundation

// MARK: - JSONObject

/// A `JSONSerialization` value made `Encodable` for ``Representation``: encodes as the same
/// sorted-key JSON the contract encoder produces.
struct JSONObject: Encodable {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case let dictionary as [String: Any]:
            var container = encoder.container(keyedBy: Key.self)
            for (key, element) in dictionary {
                try container.encode(JSONObject(element), forKey: Key(stringValue: key))
            }
        case let array as [Any]:
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(JSONObject(element)) }
        case let scalar as any Encodable:  // strings, booleans, integers, numbers
            var container = encoder.singleValueContainer()
            try container.encode(scalar)
        default:
            throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "not JSON"))
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
