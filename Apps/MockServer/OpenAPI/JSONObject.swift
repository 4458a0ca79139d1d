import Foundation

/// A `JSONSerialization` value made `Encodable` for ``Representation``: encodes as the same
/// sorted-key JSON the contract encoder produces.
struct JSONObject: Encodable {
    let value: Any

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case let dictionary as [String: Any]: try container.encode(dictionary.mapValues(JSONObject.init))
        case let array as [Any]: try container.encode(array.map(JSONObject.init))
        case let scalar as any Encodable: try container.encode(scalar)  // strings, booleans, integers, numbers
        default: throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "not JSON"))
        }
    }
}
