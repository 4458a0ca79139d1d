import Foundation
import SyncEngine
import TerminalText

/// A table on stdout: columns as wide as their widest cell, measured in display cells, the
/// last column cut to the terminal's width; remote text escaped.
enum TextTable {
    static func print(header: [String], rows: [[String]], numericColumns: Set<Int> = []) {
        TerminalLocale.activate()
        let measure = DisplayWidth.system
        let safeRows = rows.map { $0.map { SafeText.line($0, width: measure) } }
        var widths = header.map { measure.cells($0) }
        for row in safeRows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], measure.cells(cell)) }
        }
        let available = TerminalSize.columns.map { $0 - widths.dropLast().reduce(0, +) - 2 * (widths.count - 1) }
        if let available, let last = widths.indices.last { widths[last] = max(10, min(widths[last], available)) }
        for row in [header] + safeRows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 && !numericColumns.contains(column)
                    ? measure.truncated(cell, to: widths[column])
                    : measure.fitted(cell, to: widths[column], alignment: numericColumns.contains(column) ? .trailing : .leading)
            }
            Swift.print(cells.joined(separator: "  "))
        }
    }
}

/// The width of the terminal on stdout, when stdout is one.
enum TerminalSize {
    static var columns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
