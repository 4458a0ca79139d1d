import JSON

/// One stored item: its key, the JSON the server sent (compacted), and where it stands.
public struct StoredItem: Sendable, Equatable {
    public var key: ItemKey
    public var json: String
    public var pageIndex: Int
    public var position: Int
    /// The page write that created the item, and the last one that changed its JSON.
    public var createdSequence: Int
    public var changedSequence: Int

    public init(key: ItemKey, json: String, pageIndex: Int, position: Int, createdSequence: Int, changedSequence: Int) {
        self.key = key
        self.json = json
        self.pageIndex = pageIndex
        self.position = position
        self.createdSequence = createdSequence
        self.changedSequence = changedSequence
    }
}

/// A condition on one JSON member of an item, as `fresh items --where` takes it:
/// `author=민지`, `status!=draft`, `title~swift` (contains, ignoring case).
public struct ItemFilter: Sendable, Equatable {
    public enum Comparison: String, Sendable, CaseIterable {
        case equals = "="
        case notEquals = "!="
        case contains = "~"
    }

    public var path: JSONPath
    public var comparison: Comparison
    public var value: String

    /// Parses `NAME=VALUE`, `NAME!=VALUE` or `NAME~VALUE` (NAME may be a dotted path).
    public init?(parsing text: String) {
        for comparison in [Comparison.notEquals, .equals, .contains] {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            let name = String(text[..<range.lowerBound])
            guard let path = JSONPath(parsing: name), !path.isRoot else { return nil }
            (self.path, self.comparison, value) = (path, comparison, String(text[range.upperBound...]))
            return
        }
        return nil
    }
}
