import HTTPTypes
import Models

/// Every failure the mock API reports, each with its status and a JSON body
/// `{"error": {"code", "message"}}` (``Models/APIErrorBody``).
enum APIError: Error, Equatable, Sendable {
    /// A query parameter is missing its expected shape (`limit=-1`, `cursor=%zz`, …).
    case invalidQuery(name: String, message: String)
    /// A JSON body is not JSON, or one of its fields is missing or invalid.
    case invalidField(name: String, message: String)
    /// The body is not JSON at all.
    case malformedBody(String)
    /// No route, or no item with that id.
    case notFound(String)
    /// The route exists but not for this method.
    case methodNotAllowed(allowed: [HTTPRequest.Method])
    /// `If-Match` / `If-Unmodified-Since` (the header named) did not hold.
    case preconditionFailed(header: HTTPField.Name, message: String)
    /// A created item's key is taken.
    case conflict(String)
    /// The body is larger than the configured limit.
    case payloadTooLarge(limit: Int)
    /// `--require-if-match` and the write carried no `If-Match`.
    case preconditionRequired
    /// An injected failure with an arbitrary status; `retryAfter` is the formatted header value.
    case injected(status: Int, retryAfter: String?)
    /// More requests than `--rate-limit` allows, answered with `status` (429, or 403 as GitHub
    /// answers); `retryAfter` is the formatted header value, when the answer carries one.
    case rateLimited(status: Int, message: String, retryAfter: String?)
    /// Over `--secondary-limit`: 403, and nothing says how long to wait.
    case secondaryRateLimited(message: String)
    /// The bytes are not an HTTP/1.1 request at all (the parser gave up).
    case malformedRequest(String)
    /// The request's header section is larger than the parser accepts.
    case headersTooLarge(limit: Int)
    /// `--mirror`: no recorded page answers the request; `nearest` is the recorded URL closest to
    /// it, `differences` what differs.
    case notRecorded(message: String, nearest: String?, differences: [String])
    /// `--mirror`: the mirror could not be read.
    case mirrorUnavailable(String)

    // MARK: Wire form

    /// The status sent, and the code and message of the JSON error body.
    private var wire: (status: HTTPResponse.Status, code: String, message: String) {
        switch self {
        case .invalidQuery(let name, let message): (.badRequest, "invalid_query", "query parameter '\(name)': \(message)")
        case .invalidField(let name, let message): (.badRequest, "invalid_field", "field '\(name)': \(message)")
        case .malformedBody(let message): (.badRequest, "malformed_body", message)
        case .malformedRequest(let reason): (.badRequest, "malformed_request", "not an HTTP/1.1 request: \(reason)")
        case .headersTooLarge(let limit):
            (HTTPResponse.Status(code: 431, reasonPhrase: "Request Header Fields Too Large"), "headers_too_large",
             "request headers exceed \(limit) bytes")
        case .notFound(let message): (.notFound, "not_found", message)
        case .notRecorded(let message, _, _): (.notFound, "not_recorded", message)
        case .mirrorUnavailable(let reason): (.serviceUnavailable, "mirror_unavailable", "the mirror cannot be read: \(reason)")
        case .methodNotAllowed(let allowed):
            (.methodNotAllowed, "method_not_allowed", "allowed methods: \(allowed.map(\.rawValue).joined(separator: ", "))")
        case .preconditionFailed(_, let message): (.preconditionFailed, "precondition_failed", message)
        case .conflict(let message): (.conflict, "conflict", message)
        case .rateLimited(let status, let message, _): (.init(code: status), "rate_limited", message)
        case .secondaryRateLimited(let message): (.forbidden, "secondary_rate_limited", message)
        case .payloadTooLarge(let limit): (.contentTooLarge, "payload_too_large", "request body exceeds \(limit) bytes")
        case .preconditionRequired: (.preconditionRequired, "precondition_required", "this server requires If-Match on writes")
        case .injected(let status, _): (.init(code: status), "injected_fault", "fault injected by fresh-mock (status \(status))")
        }
    }

    var status: HTTPResponse.Status { wire.status }

    var body: APIErrorBody {
        guard case .notRecorded(_, let nearest, let differences) = self else { return APIErrorBody(code: wire.code, message: wire.message) }
        return APIErrorBody(code: wire.code, message: wire.message, nearest: nearest, differences: differences)
    }

    /// Headers the status calls for (`Allow`, `Retry-After`).
    var headers: HTTPFields {
        switch self {
        case .methodNotAllowed(let allowed): [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
        case .injected(_, let retryAfter?), .rateLimited(_, _, let retryAfter?): [.retryAfter: retryAfter]
        default: [:]
        }
    }
}
