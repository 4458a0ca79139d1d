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

    /// Parses one entity tag, `W/` and quotes included (surrounding whitespace is ignored);
    /// `nil` when the text is not one: unquoted, a quote or a control character inside, a
    /// lower-case `w/`.
    public init?(_ text: some StringProtocol) {
        var bytes = Substring(text.trimmingWhitespace()).utf8[...]
        let isWeak = bytes.starts(with: "W/".utf8)
        if isWeak { bytes = bytes.dropFirst(2) }
        guard bytes.count >= 2, bytes.first == .quote, bytes.last == .quote else { return nil }
        let inner = bytes.dropFirst().dropLast()
        guard inner.allSatisfy(isEntityTagCharacter) else { return nil }
        self.init(opaqueTag: String(Substring(inner)), isWeak: isWeak)
    }

    /// Parses an `ETag` field as a client meets it: an entity tag, or else the unquoted form
    /// some servers send (`ETag: abc`, `W/abc`), read as the tag those characters would quote.
    /// `nil` for an empty value, or one with a space, quote or control character.
    public static func lenient(_ text: some StringProtocol) -> EntityTag? {
        if let tag = EntityTag(text) { return tag }
        var bytes = Substring(text.trimmingWhitespace()).utf8[...]
        let isWeak = bytes.starts(with: "W/".utf8)
        if isWeak { bytes = bytes.dropFirst(2) }
        guard !bytes.isEmpty, bytes.allSatisfy(isEntityTagCharacter) else { return nil }
        return EntityTag(opaqueTag: String(Substring(bytes)), isWeak: isWeak)
    }

    /// The field form: `"abc"` or `W/"abc"`.
    public var description: String { (isWeak ? "W/" : "") + "\"\(opaqueTag)\"" }

    /// Weak comparison (RFC 9110 §8.8.3.2): the opaque tags match, whatever their weakness.
    /// `If-None-Match` compares this way.
    public func weaklyMatches(_ other: EntityTag) -> Bool { opaqueTag == other.opaqueTag }
    /// Strong comparison: both strong and identical. `If-Match` compares this way.
    public func stronglyMatches(_ other: EntityTag) -> Bool { !isWeak && !other.isWeak && opaqueTag == other.opaqueTag }
}

/// etagc: `"!" / %x23-7E / obs-text` (no space, quote, control character or DEL).
private func isEntityTagCharacter(_ byte: UInt8) -> Bool {
    byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
}

/// The value of `If-Match` or `If-None-Match` (RFC 9110 §13.1.1, §13.1.2): `*` or entity tags.
public enum EntityTagList: Sendable, Equatable {
    /// `*`: any current representation.
    case any
    case tags([EntityTag])

    /// Parses the field strictly: `nil` when any member is not an entity tag, or there is none.
    /// A server answering `If-Match` needs this: a malformed precondition must not pass.
    public init?(fieldValue: String) {
        if fieldValue.trimmingWhitespace() == "*" {
            self = .any
            return
        }
        let elements = FieldList.elements(fieldValue)
        let tags = elements.compactMap { EntityTag($0) }
        guard !tags.isEmpty, tags.count == elements.count else { return nil }
        self = .tags(tags)
    }

    /// Parses the field leniently: malformed members are skipped.
    public static func lenient(_ fieldValue: String) -> EntityTagList {
        if fieldValue.trimmingWhitespace() == "*" { return .any }
        return .tags(FieldList.elements(fieldValue).compactMap { EntityTag($0) })
    }

    /// Whether `tag` is matched under weak comparison (`*` matches any current representation).
    public func weaklyMatches(_ tag: EntityTag?) -> Bool { matches(tag, by: EntityTag.weaklyMatches) }
    /// Whether `tag` is matched under strong comparison (`*` matches any current representation).
    public func stronglyMatches(_ tag: EntityTag?) -> Bool { matches(tag, by: EntityTag.stronglyMatches) }

    private func matches(_ tag: EntityTag?, by comparison: (EntityTag) -> (EntityTag) -> Bool) -> Bool {
        switch self {
        case .any: tag != nil
        case .tags(let tags): tag.map { current in tags.contains { comparison($0)(current) } } ?? false
        }
    }
}
