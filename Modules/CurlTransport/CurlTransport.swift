import CCurl
import Dispatch
import Foundation
import HTTPCache

/// The live ``HTTPTransport``: libcurl's easy interface, one blocking transfer per request on
/// a dispatch thread, over a pool of reused handles that keeps connections alive. A request sent
/// through a ``TransferChain`` (``makeChain(name:)``) is driven by that chain's loop instead.
///
/// Bodies in a content coding come back decoded unless the request sets its own `Accept-Encoding`
/// (then exactly as sent): by libdeflate once whole, or by libcurl as they arrive (``BodyDecoding``).
/// A short body is an error, never a response.
public final class CurlTransport: HTTPTransport {
    private let pool = CurlHandlePool()
    private let connectTimeout: Duration
    private let userAgent: String
    private let proxy: String?
    /// Who decodes bodies in a content coding.
    public let decoding: BodyDecoding

    /// - Parameters:
    ///   - connectTimeout: how long establishing a connection may take (`--connect-timeout`).
    ///   - userAgent: the `User-Agent` sent unless the request sets one.
    ///   - proxy: the proxy every request goes through (`--proxy`); `nil`: the proxy environment
    ///     variables, as curl reads them.
    ///   - decoding: who decodes bodies in a content coding.
    public init(connectTimeout: Duration = .seconds(10), userAgent: String = "fresh", proxy: String? = nil,
                decoding: BodyDecoding = .whole) {
        self.connectTimeout = connectTimeout
        self.userAgent = userAgent
        self.proxy = proxy
        self.decoding = decoding
    }

    /// This transport's settings with bodies decoded by `decoding` (before its first request).
    public func decoding(_ decoding: BodyDecoding) -> CurlTransport {
        CurlTransport(connectTimeout: connectTimeout, userAgent: userAgent, proxy: proxy, decoding: decoding)
    }

    /// Starts loading libcurl on a thread of its own, so that a program about to send requests
    /// (a sync) overlaps the load with its own start; a request made meanwhile waits for it.
    /// A program that preloads calls ``finishPreload()`` before it exits.
    public static func preload() { Thread.detachNewThread { _ = fresh_curl_load() } }
    /// Waits until a load started by ``preload()`` is done: a program must not exit while libcurl
    /// and OpenSSL initialise on another thread, since their exit handlers would run beside that.
    public static func finishPreload() { _ = fresh_curl_load() }

    public func send(_ request: TransportRequest) async throws -> TransportResponse { try await send(request, on: nil) }

    /// Sends `request`: on `chain`'s loop when one is given (``TransferChain``), else blocking
    /// a thread of its own for the transfer.
    func send(_ request: TransportRequest, on chain: TransferChain?) async throws -> TransportResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              request.url.host?.isEmpty == false else {
            throw TransportError.invalidURL(request.url.absoluteString)
        }
        // Loaded on the first request, not before: a run answered from the cache never pays
        // for libcurl and the libraries it brings (OpenSSL, Kerberos, LDAP, ...).
        if let failure = fresh_curl_load() { throw TransportError.unavailable("libcurl: \(String(cString: failure))") }
        let transfer = CurlTransfer(request: request, connectTimeout: connectTimeout, userAgent: userAgent, proxy: proxy,
                                    decoding: decoding)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // On a transfer loop, the loop's thread sends the request and resumes the task.
                if let chain, chain.start(transfer, done: { continuation.resume(with: $0) }) { return }
                // A transfer blocks its thread until the server answers. The global queue's threads
                // are Swift concurrency's pool on Linux (one per core), which a few slow transfers
                // would stall; a queue of its own runs on an overcommitting thread, made as needed.
                DispatchQueue(label: "fresh.curl-transfer").async { [pool] in
                    // The handle goes back to the pool before the task resumes, so its next request reuses it.
                    let handle = pool.checkOut()
                    let result = Result { try transfer.perform(on: handle) }
                    pool.checkIn(handle)
                    continuation.resume(with: result)
                }
            }
        } onCancel: {
            transfer.cancel()
            // A loop waiting for I/O looks at the transfer again now, rather than at its next timer.
            chain?.wake()
        }
    }

    /// A thread that runs a chain of requests and drives their transfers itself, several at
    /// once, without blocking (see ``TransferChain``); `nil` when libcurl cannot be loaded (a
    /// request then fails as it would anywhere). Stop its loop when its task is done.
    public func makeChain(name: String) -> TransferChain? {
        guard fresh_curl_load() == nil else { return nil }
        return TransferChain(name: name, transport: self, multi: CurlMulti(pool: pool))
    }
}
