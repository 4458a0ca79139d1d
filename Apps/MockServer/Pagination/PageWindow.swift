/// The items of one page of a collection and what lies on either side of them.
struct PageWindow: Sendable {
    /// The page's items, in key order.
    let items: [MockItem]
    let hasNext: Bool
    let hasPrevious: Bool

    /// The window `query` selects in `collection`.
    init(_ query: PageQuery, in collection: ItemCollection) {
        let count = collection.count
        let (start, size): (Int, Int)
        switch query {
        case .pageNumber(let page, let perPage):
            let (product, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
            (start, size) = (overflow ? count : min(product, count), perPage)
        case .offset(let offset, let limit):
            (start, size) = (min(offset, count), limit)
        case .cursor(nil, let limit), .startingAfter(nil, let limit):
            (start, size) = (0, limit)
        case .cursor(let cursor?, let limit) where cursor.direction == .after:
            (start, size) = (collection.firstIndex(after: cursor.key), limit)
        case .startingAfter(let key?, let limit):
            (start, size) = (collection.firstIndex(after: key), limit)
        case .cursor(let cursor?, let limit):
            let end = collection.firstIndex(notBelow: cursor.key)
            (start, size) = (max(0, end - limit), min(limit, end))
        }
        let end = min(start + size, count)
        self.items = start < end ? collection.items.items(in: start..<end) : []
        self.hasNext = end < count
        self.hasPrevious = start > 0
    }
}
