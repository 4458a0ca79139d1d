import Models
import TerminalText

/// The post list: a header row, then one row per visible post in three columns (id, title,
/// author) whose edges line up whatever the script, because every cell is measured with
/// ``DisplayWidth`` and cut with "…".
public enum PostListView {
    /// What an empty database shows instead of rows.
    public static let emptyMessage = "no posts stored yet — run: fresh sync URL"

    /// The widths of the three columns, in cells.
    public struct Columns: Equatable, Sendable {
        /// The id column (right-aligned).
        public var id: Int
        /// The title column: what the others leave.
        public var title: Int
        /// The author column.
        public var author: Int
    }

    /// Cells between two columns.
    static let gap = "  "

    /// Columns for `posts` on a line of `width` cells: the id as wide as the longest id, the
    /// author as wide as the longest author but at most a third of what is left, the
    /// title the rest. Computed over all posts, so the columns stay put while scrolling.
    public static func columns(for posts: [Post], width: Int, measure: DisplayWidth) -> Columns {
        let id = posts.map { String($0.id).count }.max().map { max($0, 2) } ?? 2
        let rest = max(0, width - id - 2 * gap.count)
        let longestAuthor = posts.map { measure.cells(SafeText.line($0.author, width: measure)) }.max() ?? 0
        let author = min(max(longestAuthor, measure.cells("AUTHOR")), max(measure.cells("AUTHOR"), rest / 3))
        return Columns(id: id, title: max(0, rest - author), author: author)
    }

    /// The column headers.
    public static func header(_ columns: Columns, measure: DisplayWidth) -> String {
        line(id: "ID", title: "TITLE", author: "AUTHOR", columns: columns, measure: measure)
    }

    /// One post's row; remote text is made safe before it is measured.
    public static func row(_ post: Post, columns: Columns, measure: DisplayWidth) -> String {
        line(id: String(post.id), title: SafeText.line(post.title, width: measure),
             author: SafeText.line(post.author, width: measure), columns: columns, measure: measure)
    }

    /// The header and the visible rows (or the empty message), at most `navigation.height`
    /// rows below the header.
    public static func lines(posts: [Post], navigation: ListNavigation, width: Int, measure: DisplayWidth) -> [ScreenLine] {
        let columns = columns(for: posts, width: width, measure: measure)
        var lines = [ScreenLine(header(columns, measure: measure), style: .heading)]
        guard !posts.isEmpty else {
            return lines + [ScreenLine(""), ScreenLine(" " + emptyMessage)]
        }
        for index in navigation.visibleRange {
            lines.append(ScreenLine(row(posts[index], columns: columns, measure: measure),
                                    style: index == navigation.selected ? .selected : .plain))
        }
        return lines
    }

    private static func line(id: String, title: String, author: String, columns: Columns, measure: DisplayWidth) -> String {
        measure.fitted(id, to: columns.id, alignment: .trailing) + gap
            + measure.fitted(title, to: columns.title) + gap
            + measure.fitted(author, to: columns.author)
    }
}
