// MARK: - EntityTag

/// An HTTP entity tag (RFC 9110 §8.8.3): an opaque quoted string, optionally weak (`W/"…"`).
struct EntityTag: Hashable, Sendable {
    /// The characters between the quotes.
    var opaque: String
    /// Whether the tag carries the `W/` prefix.
    var isWeak: Bool

    init(opaque: String, isWeak: Bool = false) {
        self.opaque = opaque
        self.isWeak = isWeak
    }

    /// The strong tag of `bytes`: their FNV-1a 64-bit hash as 16 hex digits.
    init(hashing bytes: some Sequence<UInt8>) {
        self.init(opaque: FNV1a64.hexDigest(of: bytes))
    }

    /// The header form: `"opaque"` or `W/"opaque"`.
    var headerValue: String {
        (isWeak ? "W/" : "") + "\"" + opaque + "\""
    }

    // MARK: Comparison (RFC 9110 §8.8.3.2)

    /// Weak comparison: the opaque values match, whatever the weakness (used by If-None-Match).
    func weaklyMatches(_ other: EntityTag) -> Bool {
        opaque == other.opaque
    }

    /// Strong comparison: both strong and the opaque values match (used by If-Match).
    func stronglyMatches(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaque == other.opaque
    }
}
