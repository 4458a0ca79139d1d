/// Where the words of a search stand in a line, to draw them highlighted: every word of the
/// query (as the search matches them: ignoring case, the last one as a prefix too), wherever it
/// occurs, as offsets of the line's Unicode scalars.
enum SearchHighlight {
    static func ranges(of query: String, in text: String) -> [Range<Int>] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace).map { Array(String($0).unicodeScalars) }
        // Most lines on screen hold none of the words: ASCII words are first looked for in the
        // line's bytes, ignoring ASCII case, without lower-casing the line (which took a tenth of a
        // screen's scroll). A line whose only match needs Unicode case folding (a Kelvin sign for
        // a "k") is not highlighted.
        if words.allSatisfy({ $0.allSatisfy(\.isASCII) }), !words.contains(where: { holds($0, in: text) }) { return [] }
        let scalars = Array(text.lowercased().unicodeScalars)
        // Lower-casing keeps the scalar count of the text it was made from only for most scripts;
        // where it does not, nothing is highlighted rather than the wrong cells.
        guard !words.isEmpty, scalars.count == text.unicodeScalars.count else { return [] }
        var ranges: [Range<Int>] = []
        for word in words where !word.isEmpty {
            var start = 0
            while start + word.count <= scalars.count {
                if scalars[start] == word[0], scalars[start..<(start + word.count)].elementsEqual(word) {
                    ranges.append(start..<(start + word.count))
                    start += word.count
                } else {
                    start += 1
                }
            }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether `text` holds the lower-case ASCII `word`, its letters in either case.
    private static func holds(_ word: [Unicode.Scalar], in text: String) -> Bool {
        let word = word.map { UInt8($0.value) }
        guard !word.isEmpty else { return true }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= word.count else { return false }
            for start in 0...(bytes.count - word.count) where lowered(bytes[start]) == word[0] {
                if (1..<word.count).allSatisfy({ lowered(bytes[start + $0]) == word[$0] }) { return true }
            }
            return false
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
