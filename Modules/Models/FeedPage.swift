/// One entry of `GET /feed?offset=&limit=`.
public struct FeedItem: Codable, Hashable, Sendable, Identifiable {
    public var id: Int
    public var kind: String
    public var text: String

    public init(id: Int, kind: String, text: String) {
        self.id = id
        self.kind = kind
        self.text = text
    }
}

/// The offset envelope of `GET /feed`: `{"items": [...], "total": n, "offset": o, "limit": l}`.
public struct FeedPage: Codable, Hashable, Sendable {
    public var items: [FeedItem]
    /// Size of the whole collection.
    public var total: Int
    /// Index of the first item of this page in the collection.
    public var offset: Int
    /// The page size that was asked for.
    public var limit: Int

    public init(items: [FeedItem], total: Int, offset: Int, limit: Int) {
        self.items = items
        self.total = total
        self.offset = offset
        self.limit = limit
    }

    /// The offset of the following page, or `nil` when this page reaches the end.
    public var nextOffset: Int? {
        let next = offset + items.count
        return items.isEmpty || next >= total ? nil : next
    }
}
