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
        switch format {
        case .csv: fields.map(Self.csvField).joined(separator: ",") + "\r\n"
        case .tsv: fields.map(Self.tsvField).joined(separator: "\t") + "\n"
        }
    }

    // Both work on the text's UTF-8 bytes, as the characters they look for are single bytes:
    // reading by grapheme, or through Foundation's replacing, was many times slower.

    static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        return escaped(text, between: "\"", and: "\"") { $0 == UInt8(ascii: "\"") ? "\"\"" : nil }
    }

    static func tsvField(_ text: String) -> String {
        guard text.utf8.contains(where: { tsvEscape($0) != nil }) else { return text }
        return escaped(text, tsvEscape)
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

    /// `text` between `opening` and `closing`, each byte `replacement` names written as it says.
    private static func escaped(_ text: String, between opening: String = "", and closing: String = "",
                                _ replacement: (UInt8) -> String?) -> String {
        var bytes = Array(opening.utf8)
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if let replaced = replacement(byte) { bytes += replaced.utf8 } else { bytes.append(byte) }
        }
        bytes += closing.utf8
        return String(decoding: bytes, as: UTF8.self)
    }
}
