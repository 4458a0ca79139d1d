import Foundation
import Models
import NIOCore

/// Decodes request bodies, turning decoding failures into 400s that name the offending field.
enum JSONBody {
    /// `T` decoded from `body`, or an ``APIError`` saying which field is missing or invalid.
    static func decode<T: Decodable>(_ type: T.Type, from body: ByteBuffer) throws(APIError) -> T {
        guard body.readableBytes > 0 else {
            throw .malformedBody("the request needs a JSON body")
        }
        do {
            return try JSONDecoder.api().decode(T.self, from: Data(body.readableBytesView))
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidField(name: fieldName(context.codingPath + [key]), message: "is missing")
        } catch let DecodingError.typeMismatch(expected, context) {
            throw .invalidField(name: fieldName(context.codingPath), message: "expected \(describe(expected))")
        } catch let DecodingError.valueNotFound(expected, context) {
            throw .invalidField(name: fieldName(context.codingPath), message: "must be \(describe(expected)), not null")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidField(name: fieldName(context.codingPath), message: context.debugDescription)
        } catch {
            throw .malformedBody("the request body is not valid JSON")
        }
    }

    /// Rejects a text field with nothing but spaces, tabs and line breaks (or nothing at all):
    /// exactly ``textPattern``, so `/openapi.json` and the server agree on every string whatever
    /// a regular expression engine counts as white space.
    static func requireText(_ value: String, field: String) throws(APIError) {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        if value.utf8.allSatisfy(blank.contains) {
            throw .invalidField(name: field, message: "must contain a character other than spaces, tabs and line breaks")
        }
    }

    /// The JSON Schema `pattern` of a text field: some character other than space, tab, CR, LF.
    static let textPattern = "[^ \\t\\r\\n]"

    /// `rules.0.route`: member names, and array positions from 0.
    private static func fieldName(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "(body)" : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default: "an object"
        }
    }
}
