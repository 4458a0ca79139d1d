import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on a free loopback port that keeps its one connection alive and answers
/// every request with `200 ok`, signalling ``requestArrived`` as each request comes in: a test can
/// tell, without a clock, that a request is on the server's side.
final class KeepAliveServer: @unchecked Sendable {
    /// Signalled once per request received.
    let requestArrived = DispatchSemaphore(value: 0)
    private let listener: LoopbackListener

    var baseURL: String { listener.baseURL }

    init() throws {
        let listener = try LoopbackListener(backlog: 4)
        self.listener = listener
        let arrived = requestArrived
        Thread.detachNewThread {
            guard let connection = listener.acceptOne(readTimeout: 10) else { return }
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

    func stop() { listener.stop() }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
