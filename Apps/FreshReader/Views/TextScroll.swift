/// The scroll position of a text of `lineCount` lines shown `height` lines at a time.
/// It never scrolls past the last screenful.
public struct TextScroll: Equatable, Sendable {
    /// How many lines the text has.
    public private(set) var lineCount: Int
    /// How many lines fit on the screen (at least 1).
    public private(set) var height: Int
    /// The index of the first visible line.
    public private(set) var offset = 0

    /// A text of `lineCount` lines, `height` of them on the screen, scrolled to the top.
    public init(lineCount: Int, height: Int) {
        self.lineCount = max(0, lineCount)
        self.height = max(1, height)
    }

    /// The lines on the screen.
    public var visibleRange: Range<Int> { offset..<min(lineCount, offset + height) }

    /// The largest offset: the last screenful.
    public var maximumOffset: Int { max(0, lineCount - height) }

    /// Scrolls by `delta` lines, stopping at either end.
    public mutating func scroll(by delta: Int) { offset = min(max(0, offset + delta), maximumOffset) }

    /// Scrolls to the first line.
    public mutating func scrollToTop() { offset = 0 }

    /// Scrolls to the last screenful.
    public mutating func scrollToBottom() { offset = maximumOffset }

    /// Adopts a new line count and height, keeping the offset where it can.
    public mutating func reshape(lineCount: Int, height: Int) {
        self.lineCount = max(0, lineCount)
        self.height = max(1, height)
        scroll(by: 0)
    }
}
