import Foundation

/// One answered request as the request log prints it, like an access log's line (its fields are
/// listed in docs/mock-server.md):
///
/// ```
/// 2025-11-07T08:49:37.120Z GET /posts?limit=2 304 0 If-None-Match:matched 0.21ms
/// 2025-11-07T08:49:37.480Z PATCH /posts/3 412 84 If-Match:unmatched 0.30ms
/// 2025-11-07T08:49:38.002Z GET /feed 503 98 - 0.05ms fault="status 503"
/// ```
struct AccessLogEntry: Sendable, Equatable {
    var time: Date
    var method: String
    var target: String
    var status: Int
    var bodyBytes: Int
    var condition: ConditionalOutcome?
    var duration: Duration
    var fault: String?
    /// A mirror recorded no page for the request: the line ends with `miss`.
    var miss = false

    /// The line, without a line break.
    var line: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line (without a line break) to `bytes`, formatting by hand: the log's writer
    /// thread formats every request, so it must cost little next to answering one.
    func append(to bytes: inout [UInt8]) {
        Self.appendTimestamp(time, to: &bytes)
        bytes.append(Self.space)
        Self.appendPrintable(method, to: &bytes)
        bytes.append(Self.space)
        Self.appendPrintable(target, to: &bytes)
        bytes.append(Self.space)
        bytes.append(contentsOf: String(status).utf8)
        bytes.append(Self.space)
        bytes.append(contentsOf: String(bodyBytes).utf8)
        bytes.append(Self.space)
        if let condition {
            bytes.append(contentsOf: condition.header.rawName.utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: condition.result.rawValue.utf8)
        } else {
            bytes.append(UInt8(ascii: "-"))
        }
        bytes.append(Self.space)
        let hundredths = Int((duration.seconds * 100_000).rounded())  // of a millisecond
        bytes.append(contentsOf: String(hundredths / 100).utf8)
        bytes.append(UInt8(ascii: "."))
        Self.appendDigits(hundredths % 100, width: 2, to: &bytes)
        bytes.append(contentsOf: "ms".utf8)
        if let fault { bytes.append(contentsOf: " fault=\"\(fault)\"".utf8) }
        if miss { bytes.append(contentsOf: " miss".utf8) }
    }

    // MARK: Formatting

    private static let space = UInt8(ascii: " ")

    /// `2025-11-07T08:49:37.120Z`.
    static func appendTimestamp(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - Double(seconds)) * 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let fields: [(value: Int, width: Int, then: Unicode.Scalar)] = [
            (Int(parts.tm_year) + 1900, 4, "-"), (Int(parts.tm_mon) + 1, 2, "-"), (Int(parts.tm_mday), 2, "T"),
            (Int(parts.tm_hour), 2, ":"), (Int(parts.tm_min), 2, ":"), (Int(parts.tm_sec), 2, "."), (milliseconds, 3, "Z"),
        ]
        for field in fields {
            appendDigits(field.value, width: field.width, to: &bytes)
            bytes.append(UInt8(ascii: field.then))
        }
    }

    /// `value` (not negative) in decimal, zero-padded to `width` digits.
    private static func appendDigits(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        let digits = String(value).utf8
        if digits.count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        bytes.append(contentsOf: digits)
    }

    /// `text` with spaces, control characters, `"`, non-ASCII bytes and DEL percent-encoded.
    static func appendPrintable(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") {
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            } else {
                bytes.append(byte)
            }
        }
    }
}
