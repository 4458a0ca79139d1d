import JSON

/// Where an item stands in its collection: its page, then its place on the page (the
/// server's order). Windows of rows are read from such a position through the order index.
public struct ItemPosition: Sendable, Hashable, Comparable {
    public var pageIndex: Int
    public var position: Int

    public init(pageIndex: Int, position: Int) {
        self.pageIndex = pageIndex
        self.position = position
    }

    /// Where a catch-up's items start on the first page (``MirrorStore/writeCaughtUp(_:of:pass:firstPosition:now:)``):
    /// far below any page's own positions (0, 1, 2, …), so they come first, in the order found.
    public static let caughtUpBase = -(1 << 40)

    public static func < (left: ItemPosition, right: ItemPosition) -> Bool {
        (left.pageIndex, left.position) < (right.pageIndex, right.position)
    }
}

/// One row of a list of items: what a screen shows of an item, read without its JSON.
public struct ItemRow: Sendable, Equatable {
    /// The item's row id: stable while the item exists, whatever page it moves to.
    public var id: Int64
    public var key: ItemKey
    public var at: ItemPosition
    /// The values of the title and subtitle members (see ``RowFields``), as text.
    public var title: String?
    public var subtitle: String?
    /// The page write that created the item, and the last one that changed its JSON.
    public var createdSequence: Int
    public var changedSequence: Int

    public init(id: Int64, key: ItemKey, at: ItemPosition, title: String?, subtitle: String?, createdSequence: Int, changedSequence: Int) {
        self.id = id
        self.key = key
        self.at = at
        self.title = title
        self.subtitle = subtitle
        self.createdSequence = createdSequence
        self.changedSequence = changedSequence
    }
}

/// The members a row shows: the first of ``title`` that the item has, and of ``subtitle``.
public struct RowFields: Sendable, Equatable {
    public var title: [JSONPath]
    public var subtitle: [JSONPath]

    public init(title: [JSONPath], subtitle: [JSONPath]) {
        self.title = title
        self.subtitle = subtitle
    }
}
