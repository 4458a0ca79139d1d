import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on a free loopback port, for the test servers that answer with bytes
/// of their own (what fresh-mock, a real HTTP server, cannot send).
struct LoopbackListener: Sendable {
    let port: UInt16
    private let listener: Int32

    init(backlog: Int32) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, backlog) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The first connection, its reads bounded by `seconds` so a client that goes away cannot
    /// keep the server's thread; `nil` when ``stop()`` closed the listener first.
    func acceptOne(readTimeout seconds: Int) -> Int32? {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return nil }
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return connection
    }

    /// Closes the listener, which also ends a thread still waiting for its connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
