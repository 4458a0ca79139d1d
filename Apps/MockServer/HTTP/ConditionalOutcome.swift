import HTTPTypes

/// Which validator header decided a conditional request, and how: what the request log shows
/// (`If-None-Match:matched`).
struct ConditionalOutcome: Sendable, Equatable {
    /// How the header's validator compared with the current representation.
    enum Result: String, Sendable {
        /// It still describes the current state: a GET got 304, a write went ahead.
        case matched
        /// It does not: a GET got the new body, a write got 412.
        case unmatched
        /// `--ignore-conditionals` made the server pretend it was not there.
        case ignored
    }

    /// The header that decided (If-None-Match wins over If-Modified-Since, If-Match over If-Unmodified-Since).
    var header: HTTPField.Name
    var result: Result
}
