import CCurl
import DedicatedThreads
import Foundation
import HTTPCache

/// libcurl's multi interface as the I/O of a ``TransferLoop``: the transfers its tasks start,
/// driven between their jobs without blocking the thread, each task suspended until its
/// transfer is done. The multi handle keeps the connections alive between requests.
///
/// Everything but ``wake()`` runs on the loop's thread: ``CurlTransport`` starts a transfer here
/// only from a job of that loop (``current``).
final class CurlMulti: IdleWork, @unchecked Sendable {
    private struct Running {
        var exchange: CurlExchange
        var done: (Result<TransportResponse, TransportError>) -> Void
    }

    private let multi: UnsafeMutableRawPointer
    private let pool: CurlHandlePool
    /// The transfers under way, by easy handle.
    private var running: [UnsafeMutableRawPointer: Running] = [:]
    /// The longest wait for I/O before libcurl's own timers are looked at again, in milliseconds.
    private static let longestWait: Int32 = 1000

    /// A multi handle over `pool`'s easy handles; libcurl must be loaded.
    init(pool: CurlHandlePool) {
        multi = fresh_curl_multi_init()
        self.pool = pool
    }

    deinit { fresh_curl_multi_cleanup(multi) }

    /// The loop whose thread is the caller's, if it is one.
    static var current: CurlMulti? {
        pthread_getspecific(currentKey).map { Unmanaged<CurlMulti>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Marks the calling thread as this loop's (its set-up).
    func adoptCurrentThread() { pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque()) }

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

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
