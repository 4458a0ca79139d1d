#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// MARK: - AccessLogEntry

/// One answered request as the request log prints it, like an access log's line:
///
/// ```
/// 2025-11-07T08:49:37.120Z GET /posts?limit=2 304 0 If-None-Match:matched 0.21ms
/// 2025-11-07T08:49:37.480Z PATCH /posts/3 412 84 If-Match:unmatched 0.30ms
/// 2025-11-07T08:49:38.002Z GET /feed 503 98 - 0.05ms fault="status 503"
/// ```
///
/// Fields, separated by one space: time (UTC, milliseconds), method, path and query (bytes
/// outside printable ASCII percent-encoded, so a line is always one line), status, body bytes
/// sent, the validator header that decided and whether it matched (`-` when none did), the time
/// to answer, and the injected fault if any.
struct AccessLogEntry: Sendable, Equatable {
    var time: Date
    var method: String
    var target: String
    var status: Int
    var bodyBytes: Int
    var condition: ConditionalOutcome?
    var duration: Duration
    var fault: String?

    /// The line, without a line break.
    var line: String {
        var fields = [Self.timestamp(time), Self.printable(method), Self.printable(target), String(status), String(bodyBytes)]
        fields.append(condition.map { "\($0.header.rawName):\($0.result.rawValue)" } ?? "-")
        fields.append(String(format: "%.2fms", duration.seconds * 1000))
        if let fault { fields.append("fault=\"\(fault)\"") }
        return fields.joined(separator: " ")
    }

    // MARK: Formatting

    /// `2025-11-07T08:49:37.120Z`.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = Int((interval - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }

    /// `text` with spaces, control characters, `"`, `%`-free non-ASCII and DEL percent-encoded.
    static func printable(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") }) else { return text }
        var result = ""
        for byte in text.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") {
                result += String(format: "%%%02X", byte)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}
