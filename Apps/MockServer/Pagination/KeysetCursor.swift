import JSON

/// The opaque cursor of the cursor styles: `a` (the items after a key) or `b` (before it),
/// then the key: an integer key as 16 hex digits of a scrambled 64-bit pattern
/// (`a6c3fd1e2a0b97d54`), a string key as the hex of its UTF-8 bytes.
///
/// Keyset pagination: a cursor names the last (or first) key a client has seen, not a position,
/// so it stays valid while items are created or deleted, with no duplicates and no gaps. Every
/// string of the documented shape is a cursor (the items after any key are a page), so the
/// server accepts exactly what `/openapi.json` says it does.
struct KeysetCursor: Equatable, Sendable {
    /// Which side of the key the page lies on.
    enum Direction: Character, Sendable {
        /// The items after the key: the next page.
        case after = "a"
        /// The items before the key: the previous page.
        case before = "b"
    }

    var direction: Direction
    var key: ItemKey

    init(_ direction: Direction, _ key: ItemKey) {
        self.direction = direction
        self.key = key
    }

    /// The JSON Schema `pattern` of the cursors of a collection with `keyKind` keys (empty: the
    /// first page).
    static func pattern(for keyKind: ItemCollection.KeyKind) -> String {
        keyKind == .integer ? "^([ab][0-9a-f]{16})?$" : "^([ab]([0-9a-f]{2})*)?$"
    }

    /// The wire form.
    var encoded: String {
        let bytes: [UInt8] = switch key {
        case .integer(let value): withUnsafeBytes(of: Self.scramble(UInt64(bitPattern: Int64(value))).bigEndian, Array.init)
        case .string(let value): Array(value.utf8)
        }
        let digits = bytes.flatMap { [Self.hexDigits[Int($0 >> 4)], Self.hexDigits[Int($0 & 0x0F)]] }
        return String(direction.rawValue) + String(decoding: digits, as: UTF8.self)
    }

    /// Decodes a cursor a client sent back for a collection of `keyKind` keys.
    /// - Throws: 400 when it does not have the documented shape.
    init(encoded: String, keyKind: ItemCollection.KeyKind) throws(APIError) {
        let rejected = APIError.invalidQuery(name: "cursor", message: "'\(encoded)' is not a cursor this server issued")
        guard let first = encoded.first, let direction = Direction(rawValue: first),
              let bytes = Self.bytes(ofHex: encoded.dropFirst()) else { throw rejected }
        switch keyKind {
        case .integer:
            guard bytes.count == 8 else { throw rejected }
            let pattern = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self.init(direction, .integer(Int(Int64(bitPattern: Self.unscramble(pattern)))))
        case .string:
            // Any bytes name a place in the key order; invalid UTF-8 becomes U+FFFD.
            self.init(direction, .string(String(decoding: bytes, as: UTF8.self)))
        }
    }

    // MARK: Encoding

    /// The digits of the wire form, by value.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The bytes of lowercase hex digits (an even number of them), or `nil`.
    private static func bytes(ofHex hex: Substring) -> [UInt8]? {
        let nibbles = hex.utf8.compactMap { digit in hexDigits.firstIndex(of: digit).map(UInt8.init) }
        guard nibbles.count == hex.utf8.count, nibbles.count % 2 == 0 else { return nil }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    /// An odd multiplier (invertible modulo 2⁶⁴) and the mask that make consecutive ids look unrelated.
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let mask: UInt64 = 0x5DEE_CE66_D1CE_4E5B
    /// The inverse of ``multiplier`` modulo 2⁶⁴ (Newton's iteration doubles the correct bits each step).
    private static let inverse: UInt64 = {
        var inverse = multiplier
        for _ in 0..<5 { inverse &*= 2 &- multiplier &* inverse }
        return inverse
    }()

    private static func scramble(_ value: UInt64) -> UInt64 {
        (value ^ mask) &* multiplier
    }

    private static func unscramble(_ value: UInt64) -> UInt64 {
        (value &* inverse) ^ mask
    }
}
