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

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func tsvField(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
