import Foundation

/// A URL as a person wrote it, on the command line or in `sources.toml`, read the same way
/// wherever it is read, so the same text names the same collection.
public enum WrittenURL {
    /// `text` as an http or https URL with a host (see ``escaped(_:)``); `nil` when it is none.
    public static func http(_ text: String) -> URL? {
        guard let url = URL(string: escaped(text)), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// `text` as a URL can hold it, with every escape already written kept as written:
    /// - after the host, each byte a URL cannot hold as it is (a space, `"`, `[`, `]`, `{`, `|`,
    ///   any byte of a non-ASCII character) is written as its escape (`[` as `%5B`);
    /// - each `%` that starts no escape (`%zz`, a `%` at the end) is written `%25`: a literal
    ///   percent sign, as Python's requests (and so HTTPie) read it.
    ///
    /// Foundation alone escapes every `%` of a URL that holds any such byte, so
    /// `?filter[title]=a%20b` was sent as `?filter%5Btitle%5D=a%2520b`, and `?q=%zz&r=%41` as
    /// `?q=%25zz&r=%2541`: the server was asked for something else than the text says.
    public static func escaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let pathStart = authorityEnd(of: bytes)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        var inFragment = false
        for (index, byte) in bytes.enumerated() {
            // The first `#` after the host starts the fragment; one after it is a character of it.
            let holdsAsItIs = urlCharacters.contains(byte) && !(inFragment && byte == UInt8(ascii: "#"))
            if index >= pathStart && byte == UInt8(ascii: "#") { inFragment = true }
            if byte == UInt8(ascii: "%") {
                let startsEscape = index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
                escaped += startsEscape ? [byte] : Array("%25".utf8)
            } else if index >= pathStart && !holdsAsItIs {
                escaped += Array("%\(hexDigits[Int(byte >> 4)])\(hexDigits[Int(byte & 0x0F)])".utf8)
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Where the host (and port, and user) ends: the first `/`, `?` or `#` after `scheme://`.
    /// The authority is left as written: a bracketed IPv6 address is one, and a host of other
    /// characters is refused by the URL's parser rather than sent escaped.
    private static func authorityEnd(of bytes: [UInt8]) -> Int {
        guard let scheme = bytes.firstRange(of: Array("://".utf8)) else { return 0 }
        return bytes[scheme.upperBound...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.count
    }

    /// The bytes a path, query or fragment holds as they are (RFC 3986's unreserved and
    /// reserved characters, without `[` and `]`, which only a host may hold), besides `%`.
    private static let urlCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=".utf8)

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
