import Foundation
import TerminalText

/// A table on stdout: columns as wide as their widest cell, measured in display cells; on a
/// terminal too narrow for them, the widest text columns are cut (to no less than
/// ``minimumWidth``) until a row fits; remote text escaped.
enum TextTable {
    /// The narrowest a text column is cut to.
    static let minimumWidth = 10

    static func print(header: [String], rows: [[String]], numericColumns: Set<Int> = []) {
        TerminalLocale.activate()
        let measure = DisplayWidth.system
        let safeRows = rows.map { $0.map { SafeText.line($0, width: measure) } }
        var widths = header.map { measure.cells($0) }
        for row in safeRows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], measure.cells(cell)) }
        }
        if let columns = TerminalSize.columns { widths = fitted(widths, into: columns, keeping: numericColumns) }
        for row in [header] + safeRows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 && !numericColumns.contains(column)
                    ? measure.truncated(cell, to: widths[column])
                    : measure.fitted(cell, to: widths[column], alignment: numericColumns.contains(column) ? .trailing : .leading)
            }
            StandardOutput.line(cells.joined(separator: "  "))
        }
    }

    /// `widths` (two cells between columns) cut to fit `columns`: the widest text column loses
    /// a cell at a time; numbers are never cut.
    static func fitted(_ widths: [Int], into columns: Int, keeping numericColumns: Set<Int>) -> [Int] {
        var widths = widths
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - columns
        let text = widths.indices.filter { !numericColumns.contains($0) }
        while excess > 0, let widest = text.max(by: { widths[$0] < widths[$1] }), widths[widest] > minimumWidth {
            widths[widest] -= 1
            excess -= 1
        }
        return widths
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
