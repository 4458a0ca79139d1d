extension SafeText {
    /// Safe text (from ``line(_:width:)``) cut to at most `width` cells with "…" and padded with
    /// spaces to exactly `width`. A visible escape (`\u{1b}`) is kept whole or left out whole,
    /// so a cut never leaves half of one; with `atWord`, the cut falls between words when a
    /// space is near enough (a status message).
    public static func fitted(_ text: String, to width: Int, measure: DisplayWidth, atWord: Bool = false) -> String {
        guard width > 0 else { return "" }
        let used = measure.cells(text)
        if used <= width { return text + DisplayWidth.spaces(width - used) }
        let budget = width - measure.cells(DisplayWidth.ellipsis)
        var kept = measure.prefix(of: units(of: text), fitting: budget)
        if atWord, let space = kept.lastIndex(of: " "), measure.cells(kept[..<space]) >= budget / 2 {
            kept = String(kept[..<space])
        }
        let cut = kept + DisplayWidth.ellipsis
        return cut + DisplayWidth.spaces(width - measure.cells(cut))
    }

    /// The characters of `text`, except that each visible escape `\u{…}` is one unit.
    static func units(of text: String) -> [String] {
        var units: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("\\u{"), let close = text[index...].firstIndex(of: "}"),
               text.distance(from: index, to: close) <= 10 {
                units.append(String(text[index...close]))
                index = text.index(after: close)
            } else {
                units.append(String(text[index]))
                index = text.index(after: index)
            }
        }
        return units
    }
}
