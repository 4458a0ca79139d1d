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

    /// `text` as a JSON string: quoted, with `"`, `\` and the control characters escaped. Built
    /// as UTF-8 bytes: every other byte (those of other scripts too) is copied as it is.
    public static func quoted(_ text: String) -> String {
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        quoted.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): quoted.append(UInt8(ascii: "\\")); quoted.append(byte)
            case 0x0A: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "n"))
            case 0x0D: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "r"))
            case 0x09: quoted.append(UInt8(ascii: "\\")); quoted.append(UInt8(ascii: "t"))
            case ..<0x20: quoted.append(contentsOf: "\\u00".utf8); quoted.append(hexDigits[Int(byte >> 4)]); quoted.append(hexDigits[Int(byte & 0xF)])
            default: quoted.append(byte)
            }
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
