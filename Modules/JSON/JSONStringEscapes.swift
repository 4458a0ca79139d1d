/// Resolves the escapes of a JSON string's contents (already checked by the parser).
enum JSONStringEscapes {
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var index = 0
        func flush() {
            if !utf8.isEmpty { scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars); utf8.removeAll() }
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                utf8.append(byte)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = hex(bytes, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(code), index + 6 <= bytes.count,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let low = hex(bytes, at: index + 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                flush()
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: utf8.append(escaped)
            }
        }
        flush()
        return String(scalars)
    }

    private static func hex(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0xFFFD }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8 = switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            default: byte - 0x61 + 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
