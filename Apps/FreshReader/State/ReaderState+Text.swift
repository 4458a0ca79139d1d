import Fetcher
import Foundation
import TerminalText

extension ReaderState {
    // MARK: An open item

    mutating func openItem(_ row: ListRow) throws {
        seenItems.insert(row.id)
        try layOutItem(row)
        textScroll.scrollToTop()
        mode = .item
    }

    /// Reads the item's JSON (one row, by id) and lays it out for the current width.
    mutating func layOutItem(_ row: ListRow) throws {
        guard let json = try source?.json(ofItem: row.id) else {
            message = "the item was removed"
            return
        }
        openRow = row
        textLines = ItemDetailView.lines(row: row, json: json, width: size.columns, measure: measure)
        textScroll.reshape(lineCount: textLines.count, height: Self.textHeight(size))
    }

    mutating func itemAction(_ action: Keymap.Action, count: Int? = nil) throws -> Effect {
        guard action == .nextItem || action == .previousItem else {
            scroll(action, count: count)
            return .none
        }
        list.move(by: (action == .nextItem ? 1 : -1) * (count ?? 1))
        try loadWindow()
        let effect = prefetchIfNear()
        if let row = selectedRow, row.id != openRow?.id { try openItem(row) }
        return effect
    }

    // MARK: Text screens

    mutating func showText(_ lines: [String], returnTo mode: Mode) {
        textReturn = mode
        textSource = lines
        wrapText()
        textScroll.scrollToTop()
        self.mode = .text
    }

    /// The text screen's lines wrapped to the terminal's width: when it opens, and again after a
    /// resize (the help opened narrow stayed wrapped narrow).
    mutating func wrapText() {
        textLines = textSource.flatMap { line in
            measure.wrapped(line, to: max(1, size.columns - 2)).map { ScreenLine(" " + $0) }
        }
        textScroll.reshape(lineCount: textLines.count, height: Self.textHeight(size))
    }

    /// Scrolls an item or a text screen; a count scrolls that many lines, or with `g` and `G`
    /// goes to that line (from 1).
    mutating func scroll(_ action: Keymap.Action, count: Int? = nil) {
        switch action {
        case .first, .last where count != nil:
            textScroll.scrollToTop()
            textScroll.scroll(by: (count ?? 1) - 1)
        case .down: textScroll.scroll(by: count ?? 1)
        case .up: textScroll.scroll(by: -(count ?? 1))
        case .halfPageDown: textScroll.scroll(by: max(1, textScroll.height / 2))
        case .halfPageUp: textScroll.scroll(by: -max(1, textScroll.height / 2))
        case .pageDown: textScroll.scroll(by: textScroll.height)
        case .pageUp: textScroll.scroll(by: -textScroll.height)
        case .first: textScroll.scrollToTop()
        case .last: textScroll.scrollToBottom()
        default: break
        }
    }

    /// The `e` screen: the collection, its last sync, and the latest refresh or page error in full.
    func statusDetail() -> [String] {
        guard let entry else { return ["\(collections.count) collections stored."] }
        var lines = ["Collection \(entry.name): \(Grouped.count(entry.itemCount, "item"))", "URL: \(entry.url)"]
        lines.append("Last sync: " + (entry.lastSync.map { DateText.dateTime($0, timeZone: timeZone) } ?? "never"))
        if let lastError = entry.lastError { lines.append("Last sync error: \(lastError)") }
        switch refresh {
        case .idle: lines.append("Refresh: not run")
        case .loading: lines.append("Refresh: running")
        case .refreshed(let date): lines.append("Refresh: done at \(DateText.time(date, timeZone: timeZone))" + (refreshSummary.map { ": \($0)" } ?? ""))
        case .failed(let failure): lines.append((failure.isOffline ? "Offline: " : "Refresh failed: ") + failure.message)
        }
        if case .failed(let reason) = paging { lines.append("Next page failed: \(reason)") }
        return lines.map { SafeText.line($0, width: measure) }
    }
}
