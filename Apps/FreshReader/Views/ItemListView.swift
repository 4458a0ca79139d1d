import TerminalText

/// An item list: one row per visible item (marked • when new or changed since it opened, until
/// the item is opened), the title on the left and the second field on the
/// right, every cell measured with ``DisplayWidth`` and cut with "…"; below the last item a
/// row says whether the next page is loading, failed, or the collection ends there.
public enum ItemListView {
    /// What an empty list shows instead of rows.
    public static let emptyMessage = "nothing stored yet — run: fresh sync URL, or fresh-reader --url URL"

    /// The visible rows: `window` for the list navigation's range, the footer after the last item.
    public static func lines(window: ListWindow, navigation: ListNavigation, itemCount: Int, footer: String?,
                             newSince: Int?, seen: Set<Int64> = [], width: Int, measure: DisplayWidth) -> [ScreenLine] {
        guard itemCount > 0 || footer != nil else { return [ScreenLine(""), ScreenLine(" " + emptyMessage)] }
        var lines: [ScreenLine] = []
        for index in navigation.visibleRange {
            let selected = index == navigation.selected
            if let row = window.row(index) {
                let mark = newSince.map { row.changedSequence > $0 } == true && !seen.contains(row.id) ? "•" : " "
                lines.append(ScreenLine(line(row, mark: mark, width: width, measure: measure), style: selected ? .selected : .plain))
            } else if index == itemCount, let footer {
                lines.append(ScreenLine("  " + footer, style: selected ? .selected : .dim))
            }
        }
        return lines
    }

    /// One item's row: a mark for new or changed items, its title, its second field.
    static func line(_ row: ListRow, mark: String, width: Int, measure: DisplayWidth) -> String {
        let title = row.title.map { SafeText.line($0, width: measure) } ?? SafeText.line("(untitled \(row.key))", width: measure)
        guard let subtitle = row.subtitle.map({ SafeText.line($0, width: measure) }), !subtitle.isEmpty else {
            return mark + " " + SafeText.fitted(title, to: width - 2, measure: measure)
        }
        let right = min(30, max(0, width / 3)) // the second column: a third of the line at most
        let left = max(0, width - 2 - right - 2)
        return mark + " " + SafeText.fitted(title, to: left, measure: measure) + "  " + SafeText.fitted(subtitle, to: right, measure: measure)
    }
}
