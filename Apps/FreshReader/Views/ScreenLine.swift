/// The size of the terminal in cells.
public struct ScreenSize: Equatable, Sendable {
    /// Lines on the screen.
    public var rows: Int
    /// Cells on each line.
    public var columns: Int
}

/// One row of the screen as the views produce it: text that is already safe and fitted,
/// and how it should look. The views build these without ncurses; ``Screen`` draws them.
public struct ScreenLine: Equatable, Sendable {
    /// How a line looks.
    public enum Style: Equatable, Sendable {
        /// Body text and unselected rows.
        case plain
        /// Column headers and a post's title.
        case heading
        /// The selected row of the list.
        case selected
        /// Secondary text: a post's author and date.
        case dim
        /// The status line at the bottom.
        case status
    }

    /// What to draw: safe text, exactly as wide as the screen once ``ReaderFrame`` fitted it.
    public var text: String
    /// How to draw it.
    public var style: Style
    /// Stretches of ``text`` (as offsets of its Unicode scalars) drawn highlighted: the matches
    /// of the last search.
    public var highlights: [Range<Int>]

    /// A line of `text` drawn in `style`.
    public init(_ text: String, style: Style = .plain, highlights: [Range<Int>] = []) {
        self.text = text
        self.style = style
        self.highlights = highlights
    }
}
