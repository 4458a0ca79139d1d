import Foundation
import HTTPTypes

/// One request as the cache hands it to the network.
public struct TransportRequest: Sendable, Equatable {
    public var method: HTTPRequest.Method
    public var url: URL
    public var headerFields: HTTPFields
    public var body: Data?
    /// The whole exchange must finish within this time, or fail with ``TransportError/timedOut``.
    public var timeout: Duration?
    /// The largest body (decoded) the caller takes: a longer one fails with
    /// ``TransportError/bodyTooLarge`` as soon as it passes the limit, so memory stays bounded.
    public var maximumBodySize: Int?
    /// Which certificates the request trusts (`--cacert`, `--capath`, `-k`).
    public var trust: TLSTrust = TLSTrust()

    public init(method: HTTPRequest.Method, url: URL, headerFields: HTTPFields = [:], body: Data? = nil, timeout: Duration? = nil,
                maximumBodySize: Int? = nil) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
    }
}

/// Which servers a request trusts over TLS: the system's certificate authorities, or a CA file
/// or directory of the user's (a private CA), or, with ``verifies`` off, any certificate (`-k`).
public struct TLSTrust: Sendable, Equatable {
    /// A file of PEM certificates to trust instead of the system's (`--cacert`).
    public var caFile: String?
    /// A directory of hashed certificates to trust (`--capath`).
    public var caDirectory: String?
    /// Whether the certificate and its host name are checked at all (`-k` turns it off).
    public var verifies: Bool

    public init(caFile: String? = nil, caDirectory: String? = nil, verifies: Bool = true) {
        self.caFile = caFile
        self.caDirectory = caDirectory
        self.verifies = verifies
    }
}

/// What came back over the network: status, header fields and the complete body.
public struct TransportResponse: Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    /// The body as the caller gets it: decoded when the transport decoded a content coding.
    public var body: Data
    /// Body bytes that travelled (compressed ones, when the transport decoded the body).
    public var wireByteCount: Int
    /// The status line's protocol version (`HTTP/1.1`, `HTTP/2`), when the transport knows it.
    public var version: String

    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data(),
                wireByteCount: Int? = nil, version: String = "HTTP/1.1") {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.wireByteCount = wireByteCount ?? body.count
        self.version = version
    }
}

/// Why an exchange produced no complete response.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String)
    /// Name resolution or connection failed (server down, refused, unreachable).
    case unreachable(String)
    /// The exchange did not finish in time.
    case timedOut(Duration)
    /// The body ended before the length the server announced, the connection closed early, or
    /// the body's content coding cannot decode it (cut short, or damaged, on the way). The
    /// text is the whole line ("response cut short: …", "the gzip body cannot be decoded: …").
    case truncated(String)
    /// What the server sent back is not an HTTP response (an HTTP/0.9 or garbage reply, a
    /// malformed header line, a body in a content coding fresh cannot decode at all).
    case invalidResponse(String)
    /// The body passed the request's ``TransportRequest/maximumBodySize``: the transfer stopped there, or,
    /// for a body in a content coding, its decoding did.
    case bodyTooLarge(limit: Int)
    /// The caller cancelled the exchange.
    case cancelled
    /// Any other transfer failure, with the library's message.
    case failed(String)
    /// The HTTP library itself cannot be used (libcurl missing or broken): no request was sent.
    case unavailable(String)
    /// The server's TLS certificate could not be verified (an unknown or private CA, a name that
    /// does not match, an expired certificate): a matter of trust, never retried, never "offline".
    case certificate(String)

    /// Whether the origin may simply be out of reach, so a stored response can stand in for its
    /// answer: not when the caller cancelled, nor when no request could be sent at all.
    public var meansOriginUnreachable: Bool {
        switch self {
        case .cancelled, .unavailable, .certificate: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url)"
        case .unreachable(let reason): "cannot reach the server: \(reason)"
        case .timedOut(let limit): "timed out after \(limit.formattedSeconds)"
        case .truncated(let reason): reason
        case .invalidResponse(let reason): "the server's reply is not valid HTTP: \(reason)"
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .cancelled: "cancelled"
        case .failed(let reason): "transfer failed: \(reason)"
        case .unavailable(let reason): "cannot send requests: \(reason)"
        case .certificate(let reason): "the server's certificate cannot be trusted: \(reason)"
        }
    }
}

/// The network seam of the cache: CurlTransport, or an in-memory one in tests.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the complete response, or throws ``TransportError``.
    /// Redirects are not followed: the caching client follows them itself.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

extension Duration {
    /// `1.5 s`-style text for messages.
    public var formattedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
