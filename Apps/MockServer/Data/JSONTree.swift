import JSON
import Foundation

/// Any JSON value, for the items of collections the server knows no type for (`--data` files,
/// the seeded users) and for the bodies written to them.
///
/// Objects are dictionaries: the contract encoder writes their keys sorted, so equal content
/// always gives equal bytes (and equal entity tags), whatever order a client sent.
enum JSONTree: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// The members of an object, `nil` for any other value.
    var objectMembers: [String: JSONTree]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The key this value is, when it can be one: an integer or a string.
    var itemKey: ItemKey? {
        switch self {
        case .integer(let value): .integer(value)
        case .string(let value): .string(value)
        default: nil
        }
    }

    /// A few words naming the kind of value, for error messages ("an array", "null").
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

// MARK: - Codable

extension JSONTree: Codable {
    /// Decodes whatever JSON is there; integers that fit in `Int` stay integers.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
