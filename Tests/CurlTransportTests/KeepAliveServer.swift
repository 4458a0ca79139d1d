import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on a free loopback port that keeps its one connection alive and answers
/// every request with `200 ok`, signalling ``requestArrived`` as each request comes in: a test can
/// tell, without a clock, that a request is on the server's side.
final class KeepAliveServer: @unchecked Sendable {
    let port: UInt16
    /// Signalled once per request received.
    let requestArrived = DispatchSemaphore(value: 0)
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let arrived = requestArrived
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return } // stop() closed the listener first
            var limit = timeval(tv_sec: 10, tv_usec: 0) // a client that goes away cannot keep the thread
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                pending += buffer[..<count]
                // One reply per request head received (these requests have no body).
                while let end = Self.headEnd(in: pending) {
                    pending.removeFirst(end)
                    arrived.signal()
                    let reply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"
                    _ = Array(reply.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            close(connection)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Closes the listener, which also ends a thread still waiting for its connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
