import CCurl
import HTTPCache
import Synchronization

/// One request and the settings it is sent with, and whether its caller has cancelled it.
final class CurlTransfer: Sendable {
    let request: TransportRequest
    let connectTimeout: Duration
    let userAgent: String
    let proxy: String?
    /// Who decodes a body in a content coding, when the request leaves that to the transport.
    let decoding: BodyDecoding
    private let cancelled = Atomic<Bool>(false)

    init(request: TransportRequest, connectTimeout: Duration, userAgent: String, proxy: String?, decoding: BodyDecoding) {
        self.request = request
        self.connectTimeout = connectTimeout
        self.userAgent = userAgent
        self.proxy = proxy
        self.decoding = decoding
    }

    /// Asks the transfer to stop at its next progress callback.
    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs the transfer on the calling thread (it blocks until done).
    func perform(on handle: CurlHandlePool.Handle) throws -> TransportResponse {
        let exchange = try CurlExchange(transfer: self, handle: handle)
        return try exchange.finish(fresh_curl_easy_perform(handle.raw)).get()
    }
}
