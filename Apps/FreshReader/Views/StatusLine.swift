import Fetcher
import TerminalText

/// The bottom line: on the left the collection, its count and what the refresh is doing (or
/// a message for a moment); on the right the position (`123/4,567`) and where help is.
public enum StatusLine {
    /// The left part for `state`.
    public static func text(for state: ReaderState) -> String {
        if let query = state.searchInput { return "/" + query }
        if let message = state.message { return message }
        guard let entry = state.entry, state.mode != .collections else {
            return Grouped.count(state.collections.count, "collection") + " stored"
        }
        var parts = [entry.name, Grouped.count(entry.itemCount, "item")]
        if !state.options.canFetch { parts.append("read-only") }
        if let pending = state.pendingSearch, pending.collectionID == entry.id {
            parts.append("/\(pending.query): searching…")
        }
        switch state.refresh {
        case .idle: break
        case .loading: parts.append("refreshing…")
        case .refreshed(let date):
            parts.append("updated \(DateText.time(date, timeZone: state.timeZone))" + (state.refreshSummary.map { ": \($0)" } ?? ""))
        case .failed(let failure) where failure.isOffline: parts.append("offline, showing stored items (\(failure.message))")
        case .failed(let failure): parts.append("error: \(failure.message)")
        }
        return parts.joined(separator: " · ")
    }

    /// The right part for `state`.
    public static func hints(for state: ReaderState) -> String {
        if state.searchInput != nil { return "Enter search · Esc cancel" }
        switch state.mode {
        case .collections: return "Enter open · ? help"
        case .text: return "q back"
        case .list, .item:
            guard state.itemCount > 0 else { return "? help" }
            let position = min(state.list.selected + 1, state.itemCount)
            return "\(Grouped.number(position))/\(Grouped.number(state.itemCount)) · ? help"
        }
    }

    /// The whole line, `columns` cells: the left part cut between words with "…" so the
    /// right part always fits, a space at least between them.
    public static func line(for state: ReaderState) -> ScreenLine {
        let measure = state.measure
        let columns = state.size.columns
        let hints = " " + hints(for: state) + " "
        let left = " " + SafeText.line(text(for: state), width: measure)
        let room = columns - measure.cells(hints)
        let line = room >= 10 ? SafeText.fitted(left, to: room, measure: measure, atWord: true) + hints
                              : SafeText.fitted(left, to: columns, measure: measure, atWord: true)
        return ScreenLine(line, style: .status)
    }
}
