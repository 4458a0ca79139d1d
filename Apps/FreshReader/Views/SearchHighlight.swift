/// Where the words of a search stand in a line, to draw them highlighted: every word of the
/// query (as the search matches them: ignoring case, the last one as a prefix too), wherever it
/// occurs, as offsets of the line's Unicode scalars.
enum SearchHighlight {
    static func ranges(of query: String, in text: String) -> [Range<Int>] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).map { Array(String($0).unicodeScalars) }
        let scalars = Array(text.lowercased().unicodeScalars)
        // Lower-casing keeps the scalar count of the text it was made from only for most scripts;
        // where it does not, nothing is highlighted rather than the wrong cells.
        guard !words.isEmpty, scalars.count == text.unicodeScalars.count else { return [] }
        var ranges: [Range<Int>] = []
        for word in words where !word.isEmpty {
            var start = 0
            while start + word.count <= scalars.count {
                if scalars[start..<(start + word.count)].elementsEqual(word) {
                    ranges.append(start..<(start + word.count))
                    start += word.count
                } else {
                    start += 1
                }
            }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }
}
