/// The selection and scroll position of a list that shows `height` rows at a time.
///
/// The selected row is always visible; the list never scrolls past its end. With no rows,
/// `selected` is 0 and there is nothing to select.
public struct ListNavigation: Equatable, Sendable {
    /// How many rows the list has.
    public private(set) var count: Int
    /// How many rows fit on the screen (at least 1).
    public private(set) var height: Int
    /// The index of the selected row.
    public private(set) var selected = 0
    /// The index of the first visible row.
    public internal(set) var top = 0

    /// A list of `count` rows, `height` of them on the screen, the first one selected.
    public init(count: Int, height: Int) {
        self.count = max(0, count)
        self.height = max(1, height)
    }

    /// The rows on the screen.
    public var visibleRange: Range<Int> { top..<min(count, top + height) }

    // MARK: Moving

    /// Moves the selection by `delta` rows, stopping at either end.
    public mutating func move(by delta: Int) { select(selected + delta) }

    /// Selects row `index` (clamped to the list).
    public mutating func select(_ index: Int) {
        selected = index
        clamp()
    }

    /// Scrolls so that row `index` is the first visible one where it can, the selection kept
    /// on screen (a reload keeps the selected item on the same screen row).
    public mutating func scroll(toTop index: Int) {
        let wanted = min(max(0, index), max(0, count - height))
        guard selected >= wanted, selected < wanted + height else { return }
        top = wanted
    }

    // MARK: Changing shape

    /// Adopts a new row count and screen height, keeping the selection where it can.
    public mutating func reshape(count: Int, height: Int) {
        self.count = max(0, count)
        self.height = max(1, height)
        clamp()
    }

    private mutating func clamp() {
        selected = min(max(0, selected), max(0, count - 1))
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = min(max(0, top), max(0, count - height))
    }
}
