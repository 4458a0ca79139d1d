import Foundation
import TerminalText

/// The collection list, as newsboat's feed list: name, items, last sync, status.
public enum CollectionListView {
    static let gap = "  "

    /// The header and one row per visible collection.
    public static func lines(_ entries: [CollectionEntry], navigation: ListNavigation, width: Int, measure: DisplayWidth,
                             timeZone: TimeZone) -> [ScreenLine] {
        let name = min(max(4, entries.map { measure.cells(SafeText.line($0.name, width: measure)) }.max() ?? 4), max(4, width / 3))
        let count = max(5, entries.map { Grouped.number($0.itemCount).count }.max() ?? 5)
        let synced = 16
        func line(_ columns: (String, String, String, String)) -> String {
            SafeText.fitted(columns.0, to: name, measure: measure) + gap + measure.fitted(columns.1, to: count, alignment: .trailing) + gap
                + measure.fitted(columns.2, to: synced) + gap
                + SafeText.fitted(columns.3, to: max(0, width - name - count - synced - 3 * gap.count), measure: measure)
        }
        var lines = [ScreenLine(line(("NAME", "ITEMS", "LAST SYNC", "STATUS")), style: .heading)]
        for index in navigation.visibleRange where entries.indices.contains(index) {
            let entry = entries[index]
            let when = entry.lastSync.map { DateText.dateTime($0, timeZone: timeZone) } ?? "never"
            lines.append(ScreenLine(line((SafeText.line(entry.name, width: measure), Grouped.number(entry.itemCount), when,
                                          SafeText.line(entry.status, width: measure))),
                                    style: index == navigation.selected ? .selected : .plain))
        }
        return lines
    }
}

/// Numbers with thousands separators, as the position indicator shows them: `4,567`.
public enum Grouped {
    public static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// "1 item", "4,567 items".
    public static func count(_ value: Int, _ noun: String) -> String {
        "\(number(value)) \(noun)\(value == 1 ? "" : "s")"
    }
}
