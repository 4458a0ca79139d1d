import Foundation

extension JSONEncoder {
    /// The encoder of the API contract: ISO 8601 dates, sorted keys (so equal content gives
    /// equal bytes, and so equal ETags).
    public static func api() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder of the API contract: ISO 8601 dates.
    public static func api() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
