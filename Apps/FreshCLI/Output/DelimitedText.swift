/// Rows of `fresh items --format csv|tsv`.
///
/// - CSV is RFC 4180: fields separated by commas, a field holding a comma, a quote or a line
///   break quoted with its quotes doubled, each row ended by CRLF.
/// - TSV is the IANA text/tab-separated-values form, where a field may hold no tab or line
///   break: those, and the backslash, are written `\t`, `\n`, `\r` and `\\` (as PostgreSQL's
///   COPY and Miller do), so every row is one line.
///
/// Rows are built as UTF-8 bytes, a field's runs between the bytes it must escape copied whole:
/// the characters looked for are single bytes, so reading by grapheme, or through Foundation's
/// replacing, was many times slower, and building each field and row as a `String` of its own
/// (checked as UTF-8 again each time) was a third of a CSV export's time.
struct DelimitedText {
    enum Format { case csv, tsv }
    let format: Format

    init(_ format: Format) { self.format = format }

    /// Adds one row, with its line end, to `row`.
    func append(_ fields: [String], to row: inout [UInt8]) {
        for (position, field) in fields.enumerated() {
            if position > 0 { row.append(format == .csv ? UInt8(ascii: ",") : 0x09) }
            var field = field
            field.withUTF8 { text in
                switch format {
                case .csv: Self.appendCSVField(text, to: &row)
                case .tsv: Self.appendTSVField(text, to: &row)
                }
            }
        }
        if format == .csv { row.append(0x0D) }
        row.append(0x0A)
    }

    private static func appendCSVField(_ text: UnsafeBufferPointer<UInt8>, to row: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        guard text.contains(where: { $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D }) else {
            return row.append(contentsOf: text)
        }
        row.append(quote)
        var run = 0
        for index in text.indices where text[index] == quote {
            row.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...index]))
            row.append(quote)
            run = index + 1
        }
        row.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
        row.append(quote)
    }

    private static func appendTSVField(_ text: UnsafeBufferPointer<UInt8>, to row: inout [UInt8]) {
        var run = 0
        for index in text.indices {
            guard let letter = tsvEscapeLetter(text[index]) else { continue }
            row.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
            row.append(UInt8(ascii: "\\"))
            row.append(letter)
            run = index + 1
        }
        row.append(contentsOf: UnsafeBufferPointer(rebasing: text[run...]))
    }

    /// The letter a TSV field writes after a backslash in place of `byte`, or `nil` when the byte stays.
    private static func tsvEscapeLetter(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        default: nil
        }
    }
}
