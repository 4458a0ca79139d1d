import Foundation

/// A URL as a person wrote it, on the command line or in `sources.toml`, read the same way
/// wherever it is read, so the same text names the same collection.
public enum WrittenURL {
    /// `text` as an http or https URL with a host (a lone `%` literal); `nil` when it is none.
    public static func http(_ text: String) -> URL? {
        guard let url = URL(string: escapingLonePercentSigns(text)), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// `text` with each `%` that starts no escape (`%zz`, a `%` at the end) written `%25`: a
    /// literal percent sign, as Python's requests (and so HTTPie) read it. The escapes around it
    /// are kept as written; Foundation alone would encode every `%` of that part of the URL, so
    /// `?q=%zz&r=%41` would have been sent as `?q=%25zz&r=%2541`.
    public static func escapingLonePercentSigns(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        let isHex = { (byte: UInt8) in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        var escaped: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            escaped.append(byte)
            if byte == UInt8(ascii: "%"), !(index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])) {
                escaped += Array("25".utf8)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
