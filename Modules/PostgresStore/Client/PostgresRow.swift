import Foundation

/// One row of an answer, its columns in PostgreSQL's text format (`nil` for `NULL`), read into
/// Swift values by ``decode(_:)``:
///
///     let (name, count) = try row.decode((String, Int).self)
struct PostgresRow: Sendable {
    let columns: [[UInt8]?]

    /// The row's first columns as the types of `types`, in order.
    func decode<each Value: PostgresDecodable>(_ types: (repeat each Value).Type) throws -> (repeat each Value) {
        let reader = ColumnReader(columns)
        return (repeat try reader.next((each Value).self))
    }

    /// The first column as `Value` (a tuple of one is its element, which the tuple form would
    /// leave to type inference to see).
    func decode<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
        try decode(column: 0, as: type)
    }

    /// The column at `index` as `Value`.
    func decode<Value: PostgresDecodable>(column index: Int, as type: Value.Type = Value.self) throws -> Value {
        guard columns.indices.contains(index) else { throw PostgresDecodingError(problem: "no column \(index + 1) in the row") }
        return try Value(postgresText: columns[index])
    }

    /// Hands out the columns one after another to the elements of ``decode(_:)``'s tuple.
    private final class ColumnReader {
        private let columns: [[UInt8]?]
        private var index = 0

        init(_ columns: [[UInt8]?]) { self.columns = columns }

        func next<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value {
            defer { index += 1 }
            guard index < columns.count else { throw PostgresDecodingError(problem: "the row has \(columns.count) columns, not more") }
            return try Value(postgresText: columns[index])
        }
    }
}

/// A column the code read as the wrong type: a mistake in the mirror's own statements.
struct PostgresDecodingError: Error, CustomStringConvertible {
    let problem: String
    var description: String { "unexpected answer from the server: \(problem)" }
}

/// A value read from a column's text (`nil` is `NULL`).
protocol PostgresDecodable {
    init(postgresText text: [UInt8]?) throws
}

extension PostgresDecodable {
    /// The column's text, or an error for `NULL`, which only an optional takes.
    static func present(_ text: [UInt8]?) throws -> [UInt8] {
        guard let text else { throw PostgresDecodingError(problem: "NULL where \(Self.self) was expected") }
        return text
    }

    static func mismatch(_ text: [UInt8]) -> PostgresDecodingError {
        PostgresDecodingError(problem: "'\(String(decoding: text.prefix(40), as: UTF8.self))' is not a \(Self.self)")
    }
}

extension String: PostgresDecodable {
    init(postgresText text: [UInt8]?) throws { self = String(decoding: try Self.present(text), as: UTF8.self) }
}

/// A number: its text is the server's decimal form, which Swift's own reads.
extension PostgresDecodable where Self: LosslessStringConvertible {
    init(postgresText text: [UInt8]?) throws {
        let text = try Self.present(text)
        guard let value = Self(String(decoding: text, as: UTF8.self)) else { throw Self.mismatch(text) }
        self = value
    }
}

extension Int: PostgresDecodable {}
extension Int64: PostgresDecodable {}
extension Double: PostgresDecodable {}

/// `t` or `f`.
extension Bool: PostgresDecodable {
    init(postgresText text: [UInt8]?) throws {
        let text = try Self.present(text)
        guard text == [UInt8(ascii: "t")] || text == [UInt8(ascii: "f")] else { throw Self.mismatch(text) }
        self = text == [UInt8(ascii: "t")]
    }
}

/// `bytea` in its text form, `\x` and two hex digits a byte (the server's default `bytea_output`).
extension Data: PostgresDecodable {
    init(postgresText text: [UInt8]?) throws {
        let text = try Self.present(text)
        guard text.count % 2 == 0, text.starts(with: Array(#"\x"#.utf8)) else { throw Self.mismatch(text) }
        var bytes = Data(capacity: text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = Self.hexValue(text[index]), let low = Self.hexValue(text[index + 1]) else { throw Self.mismatch(text) }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    init(postgresText text: [UInt8]?) throws { self = try text.map { try Wrapped(postgresText: $0) } }
}
