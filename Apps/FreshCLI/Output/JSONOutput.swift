import Foundation

/// The `--json` output of the read-outs: one JSON value on stdout, keys sorted, then a line
/// break (JSON escapes for what a terminal would obey, see ``StandardOutput``).
enum JSONOutput {
    static func print(_ value: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        StandardOutput.line(String(decoding: data, as: UTF8.self), as: .json)
    }

    /// An `Encodable` value the same way.
    static func print(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        StandardOutput.line(String(decoding: try encoder.encode(value), as: UTF8.self), as: .json)
    }
}
