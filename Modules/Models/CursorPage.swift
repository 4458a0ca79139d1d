/// The cursor envelope of `GET /posts?limit=&cursor=`: `{"data": [...], "next_cursor": "..."}`;
/// the cursor is opaque to clients, which pass it back verbatim to get the following page.
public struct CursorPage<Item: Codable & Sendable>: Codable, Sendable {
    /// The cursor value that marks the last page.
    public static var endCursor: String { "0" }

    /// The items of this page, in collection order.
    public var data: [Item]
    /// The cursor of the following page, or ``endCursor`` when this page is the last.
    public var nextCursor: String

    public init(data: [Item], nextCursor: String) {
        self.data = data
        self.nextCursor = nextCursor
    }

    /// Whether this page is the last one of the collection.
    public var isLastPage: Bool { nextCursor == Self.endCursor }

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }
}

extension CursorPage: Equatable where Item: Equatable {}
