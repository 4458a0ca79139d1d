@testable import CurlTransport
import Foundation
import HTTPCache
import Testing

/// Bodies in each content coding, encoded by the encoders the outside world uses (gzip, brotli,
/// zstd, Python's zlib), decoded by either decoder (``BodyDecoding``) to the same bytes; damaged,
/// cut-short and unknown codings are errors, never responses, but for a status whose body is only
/// a message.
@Suite("CurlTransport: content codings")
struct ContentDecodingTests {
    /// A JSON body of about 60 KB, Korean and ASCII text, as a page of an API is.
    static let body: [UInt8] = {
        let items = (1...300).map { #"{"id":\#($0),"title":"게시물 \#($0) 제목","body":"본문입니다 \#(String(repeating: "x", count: $0 % 37))"}"# }
        return Array("{\"data\":[\(items.joined(separator: ","))]}".utf8)
    }()

    /// `Content-Encoding` value, and how the body is encoded in it.
    static let encodings: [(coding: String, command: [String])] = [
        ("gzip", ["gzip", "-c", "-6"]),
        ("x-gzip", ["gzip", "-c", "-1"]),
        ("deflate", ["python3", "-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))"]),
        ("br", ["brotli", "-c"]),
        ("zstd", ["zstd", "-c", "-q"]),
    ]

    @Test(arguments: [BodyDecoding.whole, .libcurl], encodings.map(\.coding))
    func decodesEachCodingToTheSameBytes(decoding: BodyDecoding, coding: String) async throws {
        let command = try #require(Self.encodings.first { $0.coding == coding }?.command)
        let encoded = try Self.run(command, input: Self.body)
        let response = try await fetch(reply(encoded, coding: coding), decoding: decoding)
        #expect(response.body == Data(Self.body))
        #expect(response.headerFields[.contentEncoding] == nil)
        #expect(response.wireByteCount == encoded.count)
    }

    @Test func decodesWhatOtherServersSendUnderTheSameNames() async throws {
        // gzip members in a row (RFC 1952 §2.2), raw DEFLATE sent as "deflate", zstd frames in a row.
        let half = Self.body.count / 2
        let members = try Self.run(["gzip", "-c"], input: Array(Self.body[..<half])) + Self.run(["gzip", "-c"], input: Array(Self.body[half...]))
        let raw = try Self.run(["python3", "-c", "import sys, zlib; c = zlib.compressobj(wbits=-15); "
            + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())"], input: Self.body)
        let frames = try Self.run(["zstd", "-c", "-q"], input: Array(Self.body[..<half])) + Self.run(["zstd", "-c", "-q"], input: Array(Self.body[half...]))
        for (encoded, coding) in [(members, "gzip"), (raw, "deflate"), (frames, "zstd")] {
            let response = try await fetch(reply(encoded, coding: coding), decoding: .whole)
            #expect(response.body == Data(Self.body), "\(coding)")
        }
    }

    @Test func takesWhatLibcurlTakesAtTheEdges() async throws {
        // `none` is `identity` to libcurl; raw DEFLATE may be followed by a 4-byte checksum.
        let plain = try await fetch(reply(Self.body, coding: "none"), decoding: .whole)
        #expect(plain.body == Data(Self.body))
        let raw = try Self.run(["python3", "-c", "import sys, zlib; c = zlib.compressobj(wbits=-15); "
            + "sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())"], input: Self.body)
        let withChecksum = try await fetch(reply(raw + [0xDE, 0xAD, 0xBE, 0xEF], coding: "deflate"), decoding: .whole)
        #expect(withChecksum.body == Data(Self.body))
        await #expect(throws: TransportError.self) { try await fetch(reply(raw + [0, 0, 0, 0, 0], coding: "deflate"), decoding: .whole) }
    }

    @Test func undoesStackedCodingsLastFirst() async throws {
        let gzipped = try Self.run(["gzip", "-c"], input: Self.body)
        let response = try await fetch(reply(try Self.run(["brotli", "-c"], input: gzipped), coding: "gzip, br"), decoding: .whole)
        #expect(response.body == Data(Self.body))
        // No more than five: libcurl refuses a sixth while it reads the header, before any is undone.
        await #expect(throws: TransportError.self) {
            try await fetch(reply(gzipped, coding: "gzip, gzip, gzip, gzip, gzip, gzip"), decoding: .whole)
        }
    }

    @Test func offersEveryCodingItDecodes() async throws {
        let server = try RawReplyServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
        defer { server.stop() }
        _ = try await CurlTransport(decoding: .whole).send(TransportRequest(method: .get, url: URL(string: server.baseURL)!))
        let offered = try #require(server.request?.split(separator: "\r\n").first { $0.lowercased().hasPrefix("accept-encoding:") })
        #expect(offered == "Accept-Encoding: deflate, gzip, br, zstd")
    }

    @Test func aDamagedOrCutShortBodyIsAnError() async throws {
        var damaged = try Self.run(["gzip", "-c"], input: Self.body)
        let cut = Array(damaged.dropLast(8))
        for index in stride(from: 100, to: 400, by: 7) { damaged[index] ^= 0x5A }
        for decoding in [BodyDecoding.whole, .libcurl] {
            await #expect(throws: TransportError.self, "\(decoding)") { try await fetch(reply(damaged, coding: "gzip"), decoding: decoding) }
        }
        // Decoded whole, a body whose gzip trailer is missing is cut short: libcurl's zlib lets it pass.
        let error = await #expect(throws: TransportError.self) { try await fetch(reply(cut, coding: "gzip"), decoding: .whole) }
        #expect(error == .truncated("the gzip body cannot be decoded: it is damaged or cut short"))
    }

    /// A 429 or 503 says in `Retry-After` when the server takes the next request; its body is only
    /// a message. One whose body cannot be decoded is still the answer, without that body, so the
    /// wait is kept (a 200's is an error, above).
    @Test func anErrorStatusWhoseBodyCannotBeDecodedIsAnsweredWithoutIt() async throws {
        var damaged = try Self.run(["gzip", "-c"], input: Self.body)
        let cut = Array(damaged.dropLast(8))
        for index in stride(from: 100, to: 400, by: 7) { damaged[index] ^= 0x5A }
        let cases: [(status: String, body: [UInt8], decoding: BodyDecoding)] = [
            ("429 Too Many Requests", damaged, .whole), ("429 Too Many Requests", damaged, .libcurl),
            ("503 Service Unavailable", damaged, .whole), ("503 Service Unavailable", cut, .whole),
        ]
        for (status, body, decoding) in cases {
            let response = try await fetch(reply(body, coding: "gzip", status: status, fields: "Retry-After: 7\r\n"), decoding: decoding)
            #expect(response.status.code == Int(status.prefix(3)), "\(status), \(decoding)")
            #expect(response.headerFields[.retryAfter] == "7", "\(status), \(decoding)")
            #expect(response.headerFields[.contentEncoding] == nil, "\(status), \(decoding)")
            #expect(response.body.isEmpty, "\(status), \(decoding)")
        }
    }

    @Test func anUnknownCodingIsNamedOnlyWhenItIsAPlainToken() async throws {
        let unknown = await #expect(throws: TransportError.self) { try await fetch(reply(Array("{}".utf8), coding: "compress"), decoding: .whole) }
        #expect(unknown == .invalidResponse("the body is in a content coding fresh cannot decode (compress)"))
        let hostile = await #expect(throws: TransportError.self) {
            try await fetch(reply(Array("{}".utf8), coding: "\u{1B}]0;owned\u{07}"), decoding: .whole)
        }
        #expect(hostile == .invalidResponse("the body is in a content coding fresh cannot decode"))
    }

    @Test func theLimitCountsDecodedBytes() async throws {
        let encoded = try Self.run(["gzip", "-c"], input: Self.body)
        let limit = Self.body.count - 1
        for decoding in [BodyDecoding.whole, .libcurl] {
            let error = await #expect(throws: TransportError.self, "\(decoding)") {
                try await fetch(reply(encoded, coding: "gzip"), decoding: decoding, maximumBodySize: limit)
            }
            #expect(error == .bodyTooLarge(limit: limit))
        }
        let response = try await fetch(reply(encoded, coding: "gzip"), decoding: .whole, maximumBodySize: Self.body.count)
        #expect(response.body.count == Self.body.count)
    }

    // MARK: Helpers

    private func reply(_ body: [UInt8], coding: String, status: String = "200 OK", fields: String = "") -> [UInt8] {
        Array("""
            HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Encoding: \(coding)\r\n\(fields)\
            Content-Length: \(body.count)\r\n\r\n
            """.utf8) + body
    }

    private func fetch(_ reply: [UInt8], decoding: BodyDecoding, maximumBodySize: Int? = nil) async throws -> TransportResponse {
        let server = try RawReplyServer(reply: reply)
        defer { server.stop() }
        let request = TransportRequest(method: .get, url: URL(string: server.baseURL)!, maximumBodySize: maximumBodySize)
        return try await CurlTransport(decoding: decoding).send(request)
    }

    /// `command`'s output for `input` on its standard input (read from a file: an encoder writes while it reads).
    static func run(_ command: [String], input: [UInt8]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-coding-\(UUID().uuidString)")
        try Data(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardInput = try FileHandle(forReadingFrom: file)
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return Array(output)
    }
}
