// MARK: - EntityTagCondition

/// The parsed value of an `If-Match` or `If-None-Match` header: `*` or a list of tags.
enum EntityTagCondition: Equatable, Sendable {
    case any
    case tags([EntityTag])

    /// Parses `*` or a comma-separated list of (possibly weak) quoted tags; `nil` when malformed.
    init?(headerValue: String) {
        let trimmed = headerValue.trimmingWhitespace
        if trimmed == "*" {
            self = .any
            return
        }
        var tags: [EntityTag] = []
        for element in trimmed.split(separator: ",") {
            var item = Substring(String(element).trimmingWhitespace)
            if item.isEmpty { continue }
            let isWeak = item.hasPrefix("W/")
            if isWeak { item = item.dropFirst(2) }
            guard item.count >= 2, item.first == "\"", item.last == "\"" else { return nil }
            tags.append(EntityTag(opaque: String(item.dropFirst().dropLast()), isWeak: isWeak))
        }
        guard !tags.isEmpty else { return nil }
        self = .tags(tags)
    }

    /// Whether `current` satisfies the condition, comparing weakly (If-None-Match).
    func matchesWeakly(_ current: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.weaklyMatches(current) }
        }
    }

    /// Whether `current` satisfies the condition, comparing strongly (If-Match).
    func matchesStrongly(_ current: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.stronglyMatches(current) }
        }
    }
}
