import MirrorStore

/// The rows on screen and where they start, read so that a step costs the same wherever the
/// list is: from a row already on screen (keyset: an index range from its position), from the
/// end backwards, and only for a jump into the middle by offset.
public struct ListWindow: Sendable, Equatable {
    /// The row number of the first row.
    public private(set) var start = 0
    public private(set) var rows: [ListRow] = []

    public init() {}

    /// The row with number `ordinal`, if it is in the window.
    public func row(_ ordinal: Int) -> ListRow? {
        rows.indices.contains(ordinal - start) ? rows[ordinal - start] : nil
    }

    /// Reads the window of `height` rows from row `top` of `count`, reusing what it holds.
    public mutating func load(top: Int, height: Int, count: Int, from source: any CollectionReading) throws {
        let wanted = min(height, max(0, count - top))
        guard wanted > 0 else {
            self = ListWindow()
            return
        }
        if top == start, rows.count >= wanted { return }
        let new: [ListRow]
        if top == 0 {
            new = try source.rows(from: nil, limit: wanted)
        } else if top + wanted >= count {
            new = try source.rows(before: ItemPosition(pageIndex: .max, position: .max), limit: wanted)
        } else if let anchor = row(top) {
            new = try source.rows(from: anchor.at, limit: wanted)
        } else if let first = rows.first, top < start, start - top <= wanted, rows.count >= wanted - (start - top) {
            new = try source.rows(before: first.at, limit: start - top) + rows.prefix(wanted - (start - top))
        } else if let last = rows.last, top == start + rows.count {
            new = Array(try source.rows(from: last.at, limit: wanted + 1).dropFirst())
        } else {
            new = try source.rows(atOffset: top, limit: wanted)
        }
        start = top
        rows = new
    }

    /// Forgets the rows, so the next ``load(top:height:count:from:)`` reads them again.
    public mutating func invalidate() { self = ListWindow() }
}
