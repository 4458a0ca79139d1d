import Foundation
import TerminalText

/// A table on stdout: columns as wide as their widest cell, measured in display cells; on a
/// terminal too narrow for them, the columns a reader can spare go first (`dropping`, in that
/// order), then the widest text columns are cut (to no less than ``minimumWidth``) until a row
/// fits; remote text escaped.
enum TextTable {
    /// The narrowest a text column is cut to.
    static let minimumWidth = 10

    static func print(header: [String], rows: [[String]], numericColumns: Set<Int> = [], dropping droppable: [Int] = []) {
        TerminalLocale.activate()
        let measure = DisplayWidth.system
        var kept = Array(header.indices)
        var widths = header.map { measure.cells($0) }
        let safeRows = rows.map { $0.map { SafeText.line($0, width: measure) } }
        for row in safeRows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], measure.cells(cell)) }
        }
        if let columns = TerminalSize.columns {
            for column in droppable where kept.map({ widths[$0] }).reduce(2 * (kept.count - 1), +) > columns {
                kept.removeAll { $0 == column }
            }
            let fittedWidths = fitted(kept.map { widths[$0] }, into: columns, keeping: Set(kept.indices.filter { numericColumns.contains(kept[$0]) }))
            for (index, column) in kept.enumerated() { widths[column] = fittedWidths[index] }
        }
        let numericColumns = Set(kept.indices.filter { numericColumns.contains(kept[$0]) })
        widths = kept.map { widths[$0] }
        for row in ([header] + safeRows).map({ row in kept.map { row[$0] } }) {
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
