import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on a free loopback port that answers one connection with fixed bytes, whatever
/// the request, then closes it: a server that does not speak HTTP, which fresh-mock cannot be.
final class RawReplyServer: @unchecked Sendable {
    private let listener: LoopbackListener
    private let received = Mutex<String?>(nil)

    var baseURL: String { listener.baseURL }

    /// The request's first bytes (its head, for a GET), once the reply has gone out.
    var request: String? { received.withLock { $0 } }

    convenience init(reply: String) throws { try self.init(reply: Array(reply.utf8)) }

    init(reply: [UInt8]) throws {
        let listener = try LoopbackListener(backlog: 1)
        self.listener = listener
        Thread.detachNewThread { [self] in
            // A client that never closes cannot keep the thread.
            guard let connection = listener.acceptOne(readTimeout: 5) else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            let count = recv(connection, &request, request.count, 0)
            self.received.withLock { $0 = String(decoding: request.prefix(max(0, count)), as: UTF8.self) }
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Half-close and read what is left, so unread request bytes cannot turn the close
            // into a reset that races the reply.
            shutdown(connection, Int32(SHUT_WR))
            while recv(connection, &request, request.count, 0) > 0 {}
            close(connection)
        }
    }

    func stop() { listener.stop() }
}
