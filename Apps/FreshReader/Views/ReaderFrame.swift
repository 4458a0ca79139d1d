import TerminalText

/// The whole screen for a state: exactly `rows` lines, each fitted to `columns` cells, the
/// status line last. Pure, so what the user sees is testable without a terminal.
public enum ReaderFrame {
    /// The frame of `state`.
    public static func lines(for state: ReaderState) -> [ScreenLine] {
        let size = state.size
        let measure = state.measure
        var body: [ScreenLine]
        switch state.mode {
        case .collections:
            body = CollectionListView.lines(state.collections, navigation: state.collectionNavigation, width: size.columns,
                                            measure: measure, timeZone: state.timeZone)
        case .list:
            body = ItemListView.lines(window: state.window, navigation: state.list, itemCount: state.itemCount, footer: state.footer,
                                      newSince: state.seenSequence, seen: state.seenItems, width: size.columns, measure: measure)
        case .item, .text: body = Array(state.textLines[state.textScroll.visibleRange])
        }
        let bodyRows = max(0, size.rows - 1)
        body = Array(body.prefix(bodyRows)) + Array(repeating: ScreenLine(""), count: max(0, bodyRows - body.count))
        let highlight = ([.list, .item].contains(state.mode) ? state.lastQuery : nil).map(SearchHighlight.init)
        let fitted = body.map { line in
            let text = SafeText.fitted(line.text, to: size.columns, measure: measure)
            return ScreenLine(text, style: line.style, highlights: highlight?.ranges(in: text) ?? [])
        }
        return fitted + [StatusLine.line(for: state)]
    }
}
