import Foundation

/// A statement and its parameters: a value interpolated into the text is sent apart from it as
/// `$1`, `$2`, … (never spliced into the SQL), and `\(unescaped:)` splices text the code itself made.
///
///     try await connection.query("SELECT name FROM collection WHERE id = \(id)")
struct PostgresQuery: ExpressibleByStringInterpolation, Sendable {
    var sql: String
    var binds: PostgresBindings

    /// Text that is SQL as it stands, with `binds` for the `$n` it names.
    init(unsafeSQL sql: String, binds: PostgresBindings = PostgresBindings()) {
        self.sql = sql
        self.binds = binds
    }

    init(stringLiteral value: String) { self.init(unsafeSQL: value) }

    init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBindings()

        init(literalCapacity: Int, interpolationCount: Int) { sql.reserveCapacity(literalCapacity + 3 * interpolationCount) }

        mutating func appendLiteral(_ literal: String) { sql += literal }

        /// A parameter: `$n` in the text, the value beside it.
        mutating func appendInterpolation(_ value: some PostgresEncodable) { appendParameter(value) }

        /// A parameter that may be `NULL` (the same, spelled out: an optional would otherwise
        /// draw the compiler's warning about interpolating one).
        mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) { appendParameter(value) }

        private mutating func appendParameter(_ value: some PostgresEncodable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Text the code made itself (a column list, a path literal), spliced in as it is.
        mutating func appendInterpolation(unescaped text: String) { sql += text }
    }
}

/// The parameters of a statement, each as libpq sends it: its type, and its value in binary
/// format (`nil` for `NULL`).
struct PostgresBindings: Sendable {
    private(set) var types: [UInt32] = []
    private(set) var values: [[UInt8]?] = []

    init() {}

    var count: Int { values.count }

    mutating func append(_ value: some PostgresEncodable) {
        types.append(type(of: value).postgresType)
        values.append(value.postgresValue)
    }
}

/// A value sent as a parameter, in PostgreSQL's binary format (the format of `COPY BINARY`).
protocol PostgresEncodable: Sendable {
    /// The type's OID (`pg_type.oid`).
    static var postgresType: UInt32 { get }
    /// The value's bytes, `nil` for `NULL`.
    var postgresValue: [UInt8]? { get }
}

/// A type whose values may be the elements of an array parameter.
protocol PostgresArrayElement: PostgresEncodable {
    /// The OID of the array type of this element type (`text[]` for `text`).
    static var postgresArrayType: UInt32 { get }
}

/// The OIDs of the types the mirror sends (`SELECT oid, typname FROM pg_type`).
enum PostgresType {
    static let bool: UInt32 = 16, bytea: UInt32 = 17, int8: UInt32 = 20, int4: UInt32 = 23, text: UInt32 = 25, float8: UInt32 = 701
    static let boolArray: UInt32 = 1000, byteaArray: UInt32 = 1001, int4Array: UInt32 = 1007, textArray: UInt32 = 1009
    static let int8Array: UInt32 = 1016, float8Array: UInt32 = 1022
}

extension FixedWidthInteger {
    /// The integer's bytes, most significant first (PostgreSQL's network order).
    var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian, Array.init) }
}

extension Int: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.int8 }
    static var postgresArrayType: UInt32 { PostgresType.int8Array }
    var postgresValue: [UInt8]? { Int64(self).bigEndianBytes }
}

extension Int64: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.int8 }
    static var postgresArrayType: UInt32 { PostgresType.int8Array }
    var postgresValue: [UInt8]? { bigEndianBytes }
}

extension Int32: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.int4 }
    static var postgresArrayType: UInt32 { PostgresType.int4Array }
    var postgresValue: [UInt8]? { bigEndianBytes }
}

extension Double: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.float8 }
    static var postgresArrayType: UInt32 { PostgresType.float8Array }
    var postgresValue: [UInt8]? { bitPattern.bigEndianBytes }
}

extension Bool: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.bool }
    static var postgresArrayType: UInt32 { PostgresType.boolArray }
    var postgresValue: [UInt8]? { [self ? 1 : 0] }
}

extension String: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.text }
    static var postgresArrayType: UInt32 { PostgresType.textArray }
    var postgresValue: [UInt8]? { Array(utf8) }
}

/// Bytes as `bytea`.
extension Data: PostgresArrayElement {
    static var postgresType: UInt32 { PostgresType.bytea }
    static var postgresArrayType: UInt32 { PostgresType.byteaArray }
    var postgresValue: [UInt8]? { Array(self) }
}

/// `NULL` when `nil`, sent with the wrapped type's OID.
extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    static var postgresType: UInt32 { Wrapped.postgresType }
    var postgresValue: [UInt8]? { self?.postgresValue }
}

extension Optional: PostgresArrayElement where Wrapped: PostgresArrayElement {
    static var postgresArrayType: UInt32 { Wrapped.postgresArrayType }
}

/// An array in PostgreSQL's binary array format: one dimension, lower bound 1, each element
/// its length and bytes (-1 for `NULL`).
extension Array: PostgresEncodable where Element: PostgresArrayElement {
    static var postgresType: UInt32 { Element.postgresArrayType }

    var postgresValue: [UInt8]? {
        let values = map(\.postgresValue)
        var bytes = Int32(isEmpty ? 0 : 1).bigEndianBytes
        bytes += Int32(values.contains { $0 == nil } ? 1 : 0).bigEndianBytes
        bytes += Element.postgresType.bigEndianBytes
        guard !isEmpty else { return bytes }
        bytes.reserveCapacity(bytes.count + 8 + values.reduce(0) { $0 + 4 + ($1?.count ?? 0) })
        bytes += Int32(count).bigEndianBytes + Int32(1).bigEndianBytes
        for value in values {
            guard let value else {
                bytes += Int32(-1).bigEndianBytes
                continue
            }
            bytes += Int32(value.count).bigEndianBytes
            bytes += value
        }
        return bytes
    }
}
