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
        case .list:
            body = PostListView.lines(posts: state.posts, navigation: state.list, width: size.columns, measure: measure)
        case .post:
            body = Array(state.postLines[state.postScroll.visibleRange])
        }
        let bodyRows = max(0, size.rows - 1)
        body = Array(body.prefix(bodyRows)) + Array(repeating: ScreenLine(""), count: max(0, bodyRows - body.count))
        let fitted = body.map { ScreenLine(measure.fitted($0.text, to: size.columns), style: $0.style) }
        return fitted + [statusLine(for: state)]
    }

    /// The status text on the left and the key hints on the right when both fit.
    static func statusLine(for state: ReaderState) -> ScreenLine {
        let measure = state.measure
        let columns = state.size.columns
        let text = " " + SafeText.line(StatusLine.text(postCount: state.posts.count, status: state.status, timeZone: state.timeZone),
                                       width: measure)
        let hints = StatusLine.hints(inPost: state.mode != .list) + " "
        let room = columns - measure.cells(hints) - 2
        let line = measure.cells(text) <= room ? measure.fitted(text, to: columns - measure.cells(hints)) + hints
                                                  : measure.fitted(text, to: columns)
        return ScreenLine(line, style: .status)
    }
}
