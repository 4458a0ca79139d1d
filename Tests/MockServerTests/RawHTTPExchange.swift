import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to a loopback port and reads until the server closes the connection: for
/// requests no HTTP client would send. The blocking socket calls run on a thread of their own:
/// on Swift's pool they could hold the threads an in-process server needs to answer.
enum RawHTTPExchange {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The whole answer as text; gives up after 5 s without data.
    static func send(_ bytes: [UInt8], port: Int) async throws -> String {
        try await exchange(bytes, port: port).answer
    }

    /// The whole answer as text, and whether the server closed the connection (rather than
    /// leaving it open for 5 s without a byte).
    static func exchange(_ bytes: [UInt8], port: Int) async throws -> (answer: String, serverClosed: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try blockingExchange(bytes, port: port) }) }
        }
    }

    private static func blockingExchange(_ bytes: [UInt8], port: Int) throws -> (answer: String, serverClosed: Bool) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var sent = 0
        while sent < bytes.count {
            // The server may answer and close before it has read everything (an oversized header).
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            sent += written
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        repeat {
            count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { answer += buffer[0..<count] }
        } while count > 0
        return (String(decoding: answer, as: UTF8.self), count == 0)
    }
}
