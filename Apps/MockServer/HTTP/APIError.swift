import HTTPTypes
import Models

// MARK: - APIError

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
    /// More requests than `--rate-limit` allows; `retryAfter` is the formatted header value.
    case rateLimited(message: String, retryAfter: String)
    /// The bytes are not an HTTP/1.1 request at all (the parser gave up).
    case malformedRequest(String)
    /// The request's header section is larger than the parser accepts.
    case headersTooLarge(limit: Int)

    // MARK: Wire form

    /// The status code sent.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidQuery, .invalidField, .malformedBody, .malformedRequest: .badRequest
        case .headersTooLarge: HTTPResponse.Status(code: 431, reasonPhrase: "Request Header Fields Too Large")
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .preconditionFailed: .preconditionFailed
        case .conflict: .conflict
        case .rateLimited: .tooManyRequests
        case .payloadTooLarge: .contentTooLarge
        case .preconditionRequired: .preconditionRequired
        case .injected(let status, _): .init(code: status)
        }
    }

    /// The JSON error body.
    var body: APIErrorBody {
        switch self {
        case .invalidQuery(let name, let message):
            APIErrorBody(code: "invalid_query", message: "query parameter '\(name)': \(message)")
        case .invalidField(let name, let message):
            APIErrorBody(code: "invalid_field", message: "field '\(name)': \(message)")
        case .malformedBody(let message):
            APIErrorBody(code: "malformed_body", message: message)
        case .notFound(let message):
            APIErrorBody(code: "not_found", message: message)
        case .methodNotAllowed(let allowed):
            APIErrorBody(
                code: "method_not_allowed",
                message: "allowed methods: \(allowed.map(\.rawValue).joined(separator: ", "))"
            )
        case .preconditionFailed(_, let message):
            APIErrorBody(code: "precondition_failed", message: message)
        case .conflict(let message):
            APIErrorBody(code: "conflict", message: message)
        case .rateLimited(let message, _):
            APIErrorBody(code: "rate_limited", message: message)
        case .payloadTooLarge(let limit):
            APIErrorBody(code: "payload_too_large", message: "request body exceeds \(limit) bytes")
        case .preconditionRequired:
            APIErrorBody(code: "precondition_required", message: "this server requires If-Match on writes")
        case .injected(let status, _):
            APIErrorBody(code: "injected_fault", message: "fault injected by fresh-mock (status \(status))")
        case .malformedRequest(let reason):
            APIErrorBody(code: "malformed_request", message: "not an HTTP/1.1 request: \(reason)")
        case .headersTooLarge(let limit):
            APIErrorBody(code: "headers_too_large", message: "request headers exceed \(limit) bytes")
        }
    }

    /// Headers the status calls for (`Allow`, `Retry-After`).
    var headers: HTTPFields {
        var fields = HTTPFields()
        switch self {
        case .methodNotAllowed(let allowed):
            fields[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        case .injected(_, let retryAfter?), .rateLimited(_, let retryAfter):
            fields[.retryAfter] = retryAfter
        default:
            break
        }
        return fields
    }
}
