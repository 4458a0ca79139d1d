/// Resolves the escapes of a JSON string's contents (already checked by the parser).
enum JSONStringEscapes {
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        // The text is written as UTF-8 bytes, the runs between escapes copied whole and each
        // escape's character encoded in place, and made a String once (building it a scalar at a
        // time was a tenth of a CSV export's time).
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count)
        var index = 0
        var run = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
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
                utf8.append(contentsOf: (Unicode.Scalar(code) ?? "\u{FFFD}").utf8)
            default: utf8.append(escaped)
            }
            run = min(index, bytes.count)
        }
        utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run...]))
        return String(decoding: utf8, as: UTF8.self)
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
