/// Rows of `fresh items --format csv|tsv`.
///
/// - CSV is RFC 4180: fields separated by commas, a field holding a comma, a quote or a line
///   break quoted with its quotes doubled, each row ended by CRLF.
/// - TSV is the IANA text/tab-separated-values form, where a field may hold no tab or line
///   break: those, and the backslash, are written `\t`, `\n`, `\r` and `\\` (as PostgreSQL's
///   COPY and Miller do), so every row is one line.
struct DelimitedText {
    enum Format { case csv, tsv }
    let format: Format

    init(_ format: Format) { self.format = format }

    /// One row, with its line end.
    func row(_ fields: [String]) -> String {
        let (separator, lineEnd) = switch format {
        case .csv: (",", "\r\n")
        case .tsv: ("\t", "\n")
        }
        var row = ""
        row.reserveCapacity(fields.reduce(lineEnd.utf8.count) { $0 + $1.utf8.count + 1 })
        for (position, field) in fields.enumerated() {
            if position > 0 { row += separator }
            row += format == .csv ? Self.csvField(field) : Self.tsvField(field)
        }
        return row + lineEnd
    }

    // Both work on the text's UTF-8 bytes, as the characters they look for are single bytes:
    // reading by grapheme, or through Foundation's replacing, was many times slower; and they
    // look through the bytes in place, not a String.Index at a time (a tenth of a CSV export's time).

    static func csvField(_ text: String) -> String {
        guard has(text, { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return escaped(text, between: "\"", and: "\"") { $0 == UInt8(ascii: "\"") ? "\"\"" : nil }
    }

    static func tsvField(_ text: String) -> String {
        guard has(text, { tsvEscape($0) != nil }) else { return text }
        return escaped(text, tsvEscape)
    }

    /// Whether a byte of `text` is one `wanted` looks for.
    private static func has(_ text: String, _ wanted: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(where: wanted) }
    }

    private static func tsvEscape(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "\\"): "\\\\"
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        default: nil
        }
    }

    /// `text` between `opening` and `closing`, each byte `replacement` names written as it says;
    /// the runs between such bytes are copied whole.
    private static func escaped(_ text: String, between opening: String = "", and closing: String = "",
                                _ replacement: (UInt8) -> String?) -> String {
        var bytes = Array(opening.utf8)
        var text = text
        text.withUTF8 { utf8 in
            bytes.reserveCapacity(utf8.count + 8)
            var run = 0
            for index in utf8.indices {
                guard let replaced = replacement(utf8[index]) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                bytes.append(contentsOf: replaced.utf8)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(contentsOf: closing.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}
