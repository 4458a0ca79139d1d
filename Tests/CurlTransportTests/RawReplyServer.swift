import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on a free loopback port that answers one connection with fixed bytes, whatever
/// the request, then closes it: a server that does not speak HTTP, which fresh-mock cannot be.
final class RawReplyServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32

    init(reply: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return } // stop() closed the listener first
            var limit = timeval(tv_sec: 5, tv_usec: 0) // a client that never closes cannot keep the thread
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            _ = Array(reply.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Half-close and read what is left, so unread request bytes cannot turn the close
            // into a reset that races the reply.
            shutdown(connection, Int32(SHUT_WR))
            while recv(connection, &request, request.count, 0) > 0 {}
            close(connection)
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Closes the listener, which also ends a thread still waiting for its connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
