import Foundation
import HTTPTypes

/// How the caching client follows redirects (RFC 9110 §15.4).
enum RedirectRule {
    /// The next request, or `nil` when the response is not a redirect (or one without a
    /// `Location`, which is the answer, as curl takes it).
    /// - Throws: ``CacheError/unfollowableRedirect(_:location:)`` for a `Location` that is no
    ///   http(s) URL (`javascript:…`, `ftp://…`, `http://[::1`): returning the redirect itself
    ///   would end the request with an empty answer and success.
    static func follow(_ request: TransportRequest, response: CachedResponse) throws -> TransportRequest? {
        let code = response.status.code
        guard [301, 302, 303, 307, 308].contains(code), let location = response.headerFields[.location] else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              target.scheme == "http" || target.scheme == "https" else {
            throw CacheError.unfollowableRedirect(request.url.absoluteString, location: String(location.prefix(200)))
        }
        var next = request
        next.url = target
        // 303 asks for a GET of the target (HEAD stays HEAD); 301 and 302 turn only a POST into
        // a GET, as browsers do; 307 and 308 keep the method and body.
        let becomesGET = code == 303 ? request.method != .head && request.method != .get
            : (code == 301 || code == 302) && request.method == .post
        if becomesGET {
            next.method = .get
            next.body = nil
            next.headerFields[.contentType] = nil
        }
        let sameOrigin = target.scheme?.lowercased() == request.url.scheme?.lowercased()
            && target.host?.lowercased() == request.url.host?.lowercased() && target.port == request.url.port
        if !sameOrigin {
            for name in [HTTPField.Name.authorization, .cookie, .proxyAuthorization] { next.headerFields[name] = nil }
        }
        return next
    }
}
