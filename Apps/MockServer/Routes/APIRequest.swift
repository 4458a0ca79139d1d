import JSON
import HTTPTypes
import Hummingbird
import NIOCore

/// A request reduced to what the route handlers read: method, route, decoded query, headers
/// and the body, already collected within the size limit.
struct APIRequest: Sendable {
    var method: HTTPRequest.Method
    var route: Route
    /// The `{id}` segment of an item route, percent-decoded.
    var pathID: String?
    var query: QueryParameters
    /// The path and the query as sent (still percent-encoded; `nil`: no `?`), which a mirror looks up.
    var path: String
    var rawQuery: String?
    var headers: HTTPFields
    /// The `Host` the client used, or the address it connected to when it sent none.
    var authority: String?
    /// `https` when the server serves TLS (`--tls`), else `http`: the scheme of absolute links.
    var scheme = "http"
    var body: ByteBuffer

    /// Takes the route `match` found (`nil`: none), checks the method, decodes the query and
    /// collects the body, in the order that gives the most useful error: 404, 405, 400, 413.
    /// `localAuthority` is evaluated only for a request without `Host`.
    init(
        _ request: Request, route match: (route: Route, id: String?)?, maxBodyBytes: Int,
        localAuthority: @autoclosure () -> String?
    ) async throws(APIError) {
        guard let (route, pathID) = match else {
            throw .notFound("no route for \(request.uri.path)")
        }
        guard route.methods.contains(request.method) else {
            throw .methodNotAllowed(allowed: route.methods)
        }
        self.method = request.method
        self.route = route
        self.pathID = pathID
        self.query = try QueryParameters(query: request.uri.query)
        self.path = request.uri.path
        self.rawQuery = request.uri.query
        self.headers = request.headers
        self.authority = request.head.authority ?? localAuthority()
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxBodyBytes {
            throw .payloadTooLarge(limit: maxBodyBytes)
        }
        // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3):
        // every GET is answered without waiting on the body stream.
        guard request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil else {
            self.body = ByteBuffer()
            return
        }
        do {
            self.body = try await request.body.collect(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw .payloadTooLarge(limit: maxBodyBytes)
        } catch {
            throw .malformedBody("the request body could not be read")
        }
    }

    /// The `{id}` of an item route as a key of `collection`: an integer for integer keys (404
    /// when it is not one, since no such item can exist), the text itself for string keys.
    func itemKey(in collection: ItemCollection) throws(APIError) -> ItemKey {
        let segment = pathID ?? ""
        switch collection.keyKind {
        case .string:
            return .string(segment)
        case .integer:
            guard let value = Int(segment) else { throw .notFound("no item of \(collection.name) with id '\(segment)'") }
            return .integer(value)
        }
    }

    /// `http://HOST:PORT` (or `https://`) as the client addressed the server, which absolute
    /// links start with; "" (relative links) when the request names no address at all.
    var origin: String {
        authority.map { "\(scheme)://\($0)" } ?? ""
    }
}
