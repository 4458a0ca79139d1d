/// An entity tag (RFC 9110 §8.8.3): an opaque validator, strong or weak (`W/"…"`).
public struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// The characters between the quotes.
    public var opaqueTag: String
    /// Whether the tag carries the `W/` prefix.
    public var isWeak: Bool

    public init(opaqueTag: String, isWeak: Bool = false) {
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
    }

    /// Parses one entity tag; `nil` when the text is not one.
    public init?(_ text: String) {
        let quote = UInt8(ascii: "\"")
        var bytes = text.utf8[...]
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes = bytes.dropLast() }
        isWeak = bytes.starts(with: "W/".utf8)
        if isWeak { bytes = bytes.dropFirst(2) }
        guard bytes.count >= 2, bytes.first == quote, bytes.last == quote else { return nil }
        let inner = bytes.dropFirst().dropLast()
        guard !inner.contains(quote) else { return nil }
        opaqueTag = String(Substring(inner))
    }

    /// The field form: `"abc"` or `W/"abc"`.
    public var description: String { (isWeak ? "W/" : "") + "\"\(opaqueTag)\"" }

    /// Weak comparison (RFC 9110 §8.8.3.2): the opaque tags match, whatever their weakness.
    /// This is the comparison `If-None-Match` uses.
    public func weaklyMatches(_ other: EntityTag) -> Bool {
        opaqueTag == other.opaqueTag
    }

    /// Strong comparison: both strong and identical. This is the comparison `If-Match` uses.
    public func stronglyMatches(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// Parses an `If-None-Match` / `If-Match` list: `*`, or comma-separated entity tags.
    /// Malformed members are skipped.
    public static func parseList(_ text: String) -> EntityTagList {
        if text.trimmingWhitespace() == "*" { return .any }
        var tags: [EntityTag] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted {
                if let tag = EntityTag(current) { tags.append(tag) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if let tag = EntityTag(current) { tags.append(tag) }
        return .tags(tags)
    }
}

/// The value of a conditional header that takes entity tags.
public enum EntityTagList: Sendable, Equatable {
    case any
    case tags([EntityTag])

    /// Whether `tag` is matched under weak comparison (`*` matches any current representation).
    public func weaklyMatches(_ tag: EntityTag?) -> Bool {
        switch self {
        case .any: tag != nil
        case .tags(let tags): tag.map { current in tags.contains { $0.weaklyMatches(current) } } ?? false
        }
    }
}
