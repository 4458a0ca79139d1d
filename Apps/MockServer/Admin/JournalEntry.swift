/// One line of `GET /_admin/journal`: a request as received and the status it got.
public struct JournalEntry: Codable, Sendable, Equatable {
    /// Position in the run (1 for the first request), so gaps show what was dropped.
    public var sequence: Int
    /// Request method (`GET`, `POST`, …).
    public var method: String
    /// Path and query as sent.
    public var url: String
    /// Conditional headers received, by lowercase name (`if-none-match`, `if-modified-since`, …).
    public var conditionalHeaders: [String: String]
    /// Status sent.
    public var status: Int
    /// Body bytes sent.
    public var bodyBytes: Int
    /// The injected fault that shaped the answer, if any (e.g. `latency 120ms`, `status 503`).
    public var fault: String?
    /// `true` when a mirror recorded no page for the request (`--mirror`); absent otherwise.
    public var miss: Bool?

    enum CodingKeys: String, CodingKey {
        case sequence, method, url, status, fault, miss
        case conditionalHeaders = "conditional_headers"
        case bodyBytes = "body_bytes"
    }
}
