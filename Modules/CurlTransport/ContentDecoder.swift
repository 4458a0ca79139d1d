import CContentCoding
import Foundation
import HTTPCache
import HTTPFields

/// Who decodes a body sent in a content coding, when the request leaves `Accept-Encoding` to the
/// transport (see ``CurlTransport``).
public enum BodyDecoding: Sendable {
    /// libcurl, a piece at a time as the body arrives: zlib for gzip and deflate.
    case libcurl
    /// The transport, once the whole body is in (``ContentDecoder``): libdeflate for gzip and
    /// deflate, about twice zlib's speed. libcurl decodes instead where libdeflate cannot be loaded.
    /// A speed-up (`FRESH_SPEEDUPS` name `libdeflate`).
    case whole
}

/// Decodes a whole body from the content codings its `Content-Encoding` lists (RFC 9110 §8.4),
/// the last applied first: gzip and deflate through libdeflate, br and zstd through the libraries
/// libcurl uses for them (CContentCoding.h).
enum ContentDecoder {
    /// The `Accept-Encoding` to send: every coding whose library loads, in libcurl's order;
    /// `nil` when libdeflate does not load (libcurl then decodes, as with ``BodyDecoding/libcurl``).
    static let offered: String? = {
        guard fresh_coding_available(FRESH_CODING_GZIP) != 0 else { return nil }
        return codings.filter { fresh_coding_available($0.coding) != 0 }.map(\.name).joined(separator: ", ")
    }()

    private static let codings: [(name: String, coding: fresh_coding)] = [
        ("deflate", FRESH_CODING_DEFLATE), ("gzip", FRESH_CODING_GZIP), ("br", FRESH_CODING_BR), ("zstd", FRESH_CODING_ZSTD),
    ]

    /// `body` decoded from the codings of `contentEncoding` (the field's values), with at most
    /// `limit` bytes decoded; `body` itself when it names none (or only `identity`, or `none`,
    /// which libcurl takes for it too). libcurl refuses more than five while it reads the header.
    static func decode(_ body: Data, contentEncoding: [String], limit: Int?) throws(TransportError) -> Data {
        let names = FieldList.elements(contentEncoding).map { $0.lowercased() }.filter { $0 != "identity" && $0 != "none" }
        var decoded = body
        for name in names.reversed() where !decoded.isEmpty {
            guard let coding = coding(named: name) else {
                throw .invalidResponse("the body is in a content coding fresh cannot decode\(quoted(name))")
            }
            decoded = try decode(decoded, coding: coding, name: name, limit: limit)
        }
        return decoded
    }

    private static func coding(named name: String) -> fresh_coding? {
        if name == "x-gzip" { return FRESH_CODING_GZIP }
        return codings.first { $0.name == name }?.coding
    }

    private static func decode(_ body: Data, coding: fresh_coding, name: String, limit: Int?) throws(TransportError) -> Data {
        var output: UnsafeMutableRawPointer?
        var size = 0
        let result = body.withUnsafeBytes { bytes in
            fresh_decode(coding, bytes.baseAddress, bytes.count, limit.map { max(0, $0) } ?? Int.max, &output, &size)
        }
        switch result {
        case FRESH_DECODED:
            guard let output else { return Data() }
            return Data(bytesNoCopy: output, count: size, deallocator: .free)
        case FRESH_DECODE_TOO_LARGE: throw .bodyTooLarge(limit: limit ?? Int.max)
        case FRESH_DECODE_UNAVAILABLE: throw .invalidResponse("the body is in a content coding fresh cannot decode here (\(name): its library does not load)")
        case FRESH_DECODE_NO_MEMORY: throw .failed("out of memory decoding the \(name) body")
        // The HTTP was sound and the bytes are not: most likely cut short on the way (a proxy, a
        // server that stopped mid-body), which a retry mends; asked again, as a cut-short body is.
        default: throw .truncated("the \(name) body cannot be decoded: it is damaged or cut short")
        }
    }

    /// ` (name)` for a coding's name as the server sent it, when that is a short token; nothing
    /// otherwise, so no other server text reaches a message.
    private static func quoted(_ name: String) -> String {
        FieldList.isToken(name) && name.utf8.count <= 40 ? " (\(name))" : ""
    }
}
