import Foundation

/// JSON text without insignificant whitespace.
public enum JSONText {
    /// `text` (valid JSON) without the whitespace between its tokens; strings stay as they are.
    public static func compact(_ text: some Collection<UInt8>) -> Data {
        var compact = Data(count: text.count)
        let length = compact.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Int in
            var written = 0
            var inString = false
            var escaped = false
            for byte in text {
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    continue
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                }
                output[written] = byte
                written += 1
            }
            return written
        }
        compact.count = length
        return compact
    }

    /// ``compact(_:)`` of a string.
    public static func compact(_ text: String) -> String { String(decoding: compact(Array(text.utf8)), as: UTF8.self) }

    /// `text` as a JSON string: quoted, with `"`, `\` and the control characters escaped.
    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20: quoted += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
