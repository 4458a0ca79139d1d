import ArgumentParser
import Foundation

/// An absolute http(s) URL given on the command line, checked before any work starts. One
/// without a scheme (`example.com/a`, `localhost:8080`) means http, as curl reads it.
public struct ParsedURL: Sendable {
    public let url: URL

    /// The URL `argument` names, or the one-line reason it names none.
    public static func parse(_ argument: String) throws -> ParsedURL {
        let text = escapingLonePercentSigns(argument.contains("://") ? argument : "http://" + argument)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw ValidationError("'\(argument)' is not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw ValidationError("only http and https URLs are supported, not \(scheme): '\(argument)'") }
        guard let host = url.host, !host.isEmpty else { throw ValidationError("'\(argument)' names no host") }
        guard url.port.map((1...65535).contains) ?? true else { throw ValidationError("'\(argument)': the port must be 1…65535") }
        return ParsedURL(url: url)
    }

    /// `text` with each `%` that starts no escape (`%zz`, a `%` at the end) written `%25`: a
    /// literal percent sign, as Python's requests (and so HTTPie) read it. The escapes around it
    /// are kept as written; Foundation alone would encode every `%` of that part of the URL, so
    /// `?q=%zz&r=%41` would have been sent as `?q=%25zz&r=%2541`.
    static func escapingLonePercentSigns(_ text: String) -> String {
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
