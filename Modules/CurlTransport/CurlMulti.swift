import CCurl
import DedicatedThreads
import Foundation
import HTTPCache
import Synchronization

/// libcurl's multi interface as the I/O of a ``TransferLoop``: the transfers its tasks start,
/// driven between their jobs without blocking the thread, each task suspended until its
/// transfer is done. The multi handle keeps the connections alive between requests.
///
/// Everything but ``wake()`` and ``isOwnThread`` runs on the loop's thread: a ``TransferChain``
/// starts a transfer here only from a job of that loop.
final class CurlMulti: IdleWork, @unchecked Sendable {
    private struct Running {
        var exchange: CurlExchange
        var done: (Result<TransportResponse, TransportError>) -> Void
    }

    private let multi: UnsafeMutableRawPointer
    private let pool: CurlHandlePool
    private var running: [UnsafeMutableRawPointer: Running] = [:]
    /// The loop's thread, once it has started.
    private let owner = Mutex<pthread_t?>(nil)
    /// The longest wait for I/O before libcurl's own timers are looked at again, in milliseconds.
    private static let longestWait: Int32 = 1000

    /// A multi handle over `pool`'s easy handles; libcurl must be loaded.
    init(pool: CurlHandlePool) {
        multi = fresh_curl_multi_init()
        self.pool = pool
    }

    deinit { fresh_curl_multi_cleanup(multi) }

    func adoptCurrentThread() { owner.withLock { $0 = pthread_self() } }
    /// Forgets the loop's thread as it ends: a thread started later may get its id.
    func releaseThread() { owner.withLock { $0 = nil } }
    var isOwnThread: Bool { owner.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// Starts `transfer`: the request goes out now, as far as the socket takes it; `done` is
    /// called on this thread when the transfer has finished.
    func start(_ transfer: CurlTransfer, done: @escaping (Result<TransportResponse, TransportError>) -> Void) {
        let handle = pool.checkOut()
        let exchange: CurlExchange
        do {
            exchange = try CurlExchange(transfer: transfer, handle: handle)
        } catch {
            pool.checkIn(handle)
            return done(.failure(error as? TransportError ?? .failed("\(error)")))
        }
        running[handle.raw] = Running(exchange: exchange, done: done)
        _ = fresh_curl_multi_add_handle(multi, handle.raw)
        _ = advance()
    }

    // MARK: IdleWork

    func advance() -> Bool {
        guard !running.isEmpty else { return false }
        var stillRunning: Int32 = 0
        _ = fresh_curl_multi_perform(multi, &stillRunning)
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while fresh_curl_multi_next_done(multi, &easy, &code) != 0 {
            guard let easy, let finished = running.removeValue(forKey: easy) else { continue }
            _ = fresh_curl_multi_remove_handle(multi, easy)
            let result = finished.exchange.finish(code)
            pool.checkIn(finished.exchange.handle)
            finished.done(result)
        }
        return !running.isEmpty
    }

    func wait() { _ = fresh_curl_multi_poll(multi, Self.longestWait) }
    func wake() { _ = fresh_curl_multi_wakeup(multi) }
}
