import Foundation
import JSON
import TerminalText

/// An open item: its title, then every member of its JSON in the server's order, nested
/// objects and arrays indented, long text wrapped by display cells under its name.
public enum ItemDetailView {
    /// Cells of indent per level of nesting.
    static let indent = 2

    /// The lines of an item whose list row is `row` and whose JSON is `json`, `width` cells wide.
    public static func lines(row: ListRow, json: String, width: Int, measure: DisplayWidth) -> [ScreenLine] {
        let title = SafeText.line(row.title ?? "item \(row.key)", width: measure)
        var lines = measure.wrapped(title, to: max(1, width - 2)).map { ScreenLine(" " + $0, style: .heading) }
        lines.append(ScreenLine(" " + String(repeating: "─", count: max(1, width - 2)), style: .dim))
        guard let document = try? JSONDocument(Data(json.utf8), recordedDepth: JSONDocument.maximumNesting) else {
            return lines + SafeText.lines(json, width: measure).flatMap { wrap($0, prefix: " ", width: width, measure: measure) }
        }
        return lines + value(document.root, level: 0, width: width, measure: measure)
    }

    private static func value(_ value: JSONValue, level: Int, width: Int, measure: DisplayWidth) -> [ScreenLine] {
        let pad = " " + String(repeating: " ", count: level * indent)
        switch value.kind {
        case .object:
            return value.members.flatMap { member in
                field(SafeText.line(member.name, width: measure), member.value, pad: pad, level: level, width: width, measure: measure)
            }
        case .array:
            return value.elements.flatMap { field("-", $0, pad: pad, level: level, width: width, measure: measure) }
        default: return scalar(value, measure: measure).flatMap { wrap($0, prefix: pad, width: width, measure: measure) }
        }
    }

    /// `name: value` on one line when the value is short text, else the name alone and the
    /// value below it, one level deeper.
    private static func field(_ name: String, _ member: JSONValue, pad: String, level: Int, width: Int, measure: DisplayWidth) -> [ScreenLine] {
        let label = name == "-" ? "- " : name + ": "
        switch member.kind {
        case .object where member.count == 0: return [ScreenLine(pad + label + "{}")]
        case .array where member.count == 0: return [ScreenLine(pad + label + "[]")]
        case .object, .array:
            return [ScreenLine(pad + label.trimmingCharacters(in: .whitespaces), style: .dim)]
                + value(member, level: level + 1, width: width, measure: measure)
        default:
            let text = scalar(member, measure: measure)
            if text.count == 1, measure.cells(pad + label + text[0]) <= width { return [ScreenLine(pad + label + text[0])] }
            let deeper = pad + String(repeating: " ", count: indent)
            return [ScreenLine(pad + label.trimmingCharacters(in: .whitespaces), style: .dim)]
                + text.flatMap { wrap($0, prefix: deeper, width: width, measure: measure) }
        }
    }

    /// A scalar's lines of safe text: strings as they are, other values as their JSON.
    private static func scalar(_ value: JSONValue, measure: DisplayWidth) -> [String] {
        SafeText.lines(value.string ?? value.rawText, width: measure)
    }

    private static func wrap(_ text: String, prefix: String, width: Int, measure: DisplayWidth) -> [ScreenLine] {
        measure.wrapped(text, to: max(1, width - measure.cells(prefix) - 1)).map { ScreenLine(prefix + $0) }
    }
}
