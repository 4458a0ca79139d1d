import CCurl
import Foundation
import HTTPTypes

/// Collects what libcurl's callbacks deliver; touched only by the thread running the transfer.
final class ResponseSink: @unchecked Sendable {
    /// The body's first allocation: room for a typical page (about 50 KB) at once, rather than
    /// doubling from libcurl's first 16 KiB.
    static let initialBodyCapacity = 64 * 1024
    let transfer: CurlTransfer
    var body = Data()
    var headerFields = HTTPFields()
    var receivedStatus = false
    /// The body passed the request's maximum and the write callback refused it.
    var exceededLimit = false
    /// The status line's protocol version (`HTTP/1.1`, `HTTP/2`) and reason phrase.
    var version = ""
    var reasonPhrase = ""
    /// The blank line that ends the header section came: a field line after it is a trailer
    /// (RFC 9110 §6.5), which is not merged into the header fields: a `Cache-Control` sent there
    /// would have decided how the response is cached (§6.5.1 forbids it).
    var headerSectionEnded = false
    /// libcurl writes the message of a failed transfer here (`CURLOPT_ERRORBUFFER`).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    /// Whether the body is handed back decoded (by the transport or by libcurl, see ``BodyDecoding``):
    /// the caller asked for no content coding of its own.
    let decodes: Bool

    init(transfer: CurlTransfer) {
        self.transfer = transfer
        decodes = transfer.request.headerFields[.acceptEncoding] == nil
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// Appends a piece of the body; `false` (libcurl then fails with `CURLE_WRITE_ERROR`) past the maximum.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let limit = transfer.request.maximumBodySize, body.count + bytes.count > limit {
            exceededLimit = true
            return false
        }
        if body.isEmpty { body.reserveCapacity(Self.initialBodyCapacity) }
        if let start = bytes.baseAddress { body.append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        return true
    }

    deinit { errorBuffer.deallocate() }

    /// Header lines arrive one at a time; a status line starts a new response (after a
    /// `100 Continue`, for example), so the fields collected so far are dropped. A line is read
    /// as bytes: only the name and the value become strings (invalid UTF-8 repaired).
    func receiveHeaderLine(_ rawLine: UnsafeRawBufferPointer) {
        let line = Self.trimmingWhitespace(rawLine[...])
        if line.isEmpty {
            headerSectionEnded = true
            return
        }
        if line.starts(with: "HTTP/".utf8) {
            headerFields = HTTPFields()
            receivedStatus = true
            headerSectionEnded = false
            // `HTTP/1.1 200 OK`; HTTP/2 has no reason phrase.
            let parts = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            version = String(parts[0])
            reasonPhrase = parts.count > 2 ? String(parts[2]) : ""
            return
        }
        guard !headerSectionEnded, let colon = line.firstIndex(of: UInt8(ascii: ":")),
              let name = HTTPField.Name(String(decoding: Self.trimmingWhitespace(line[..<colon]), as: UTF8.self)) else { return }
        let value = Self.trimmingWhitespace(line[line.index(after: colon)...])
        headerFields.append(HTTPField(name: name, value: String(decoding: value, as: UTF8.self)))
    }

    /// `bytes` without the spaces, tabs, CR and LF around them (a header line's ending and OWS,
    /// RFC 9110 §5.6.3).
    static func trimmingWhitespace(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !isWhitespace($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }
}

extension Duration {
    var milliseconds: Int { Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000) }
}
