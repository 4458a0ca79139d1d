/// Where the words of a search stand in a line, to draw them highlighted: every word of the
/// query (as the search matches them: ignoring case, the last one as a prefix too), wherever it
/// occurs, as offsets of the line's Unicode scalars. Made once per frame, used for every line.
struct SearchHighlight {
    /// The query's words, lower-cased.
    private let words: [[Unicode.Scalar]]
    /// The words as bytes when all are ASCII (the usual case), for ``mayHold(_:)``.
    private let asciiWords: [[UInt8]]?

    init(_ query: String) {
        words = query.lowercased().split(whereSeparator: \.isWhitespace).map { Array(String($0).unicodeScalars) }
        asciiWords = words.allSatisfy { $0.allSatisfy(\.isASCII) } ? words.map { $0.map { UInt8($0.value) } } : nil
    }

    func ranges(in text: String) -> [Range<Int>] {
        guard !words.isEmpty, mayHold(text) else { return [] }
        let scalars = Array(text.lowercased().unicodeScalars)
        // Lower-casing keeps the scalar count of the text it was made from only for most scripts;
        // where it does not, nothing is highlighted rather than the wrong cells.
        guard scalars.count == text.unicodeScalars.count else { return [] }
        var ranges: [Range<Int>] = []
        for word in words where !word.isEmpty {
            var start = 0
            while start + word.count <= scalars.count {
                // The first scalar first: a slice compared at every offset of every line on screen
                // cost a fifth of a screen's scroll.
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

    /// Most lines on screen hold none of the words: ASCII words are looked for in the line's
    /// bytes, ignoring ASCII case, before the line is lower-cased (which took a tenth of a
    /// screen's scroll). A line whose only match needs Unicode case folding (a Kelvin sign for
    /// a "k") is not highlighted.
    private func mayHold(_ text: String) -> Bool {
        guard let asciiWords else { return true }
        var text = text
        return text.withUTF8 { bytes in asciiWords.contains { Self.holds($0, in: bytes) } }
    }

    /// Whether `bytes` hold the lower-case ASCII `word`, its letters in either case.
    private static func holds(_ word: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !word.isEmpty else { return true }
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) where lowered(bytes[start]) == word[0] {
            if (1..<word.count).allSatisfy({ lowered(bytes[start + $0]) == word[$0] }) { return true }
        }
        return false
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
