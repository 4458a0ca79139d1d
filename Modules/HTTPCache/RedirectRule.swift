import Foundation
import HTTPTypes

/// How the caching client follows redirects (RFC 9110 §15.4).
enum RedirectRule {
    /// The next request, or `nil` when the response is not a redirect to follow.
    static func follow(_ request: TransportRequest, response: CachedResponse) -> TransportRequest? {
        let code = response.status.code
        guard [301, 302, 303, 307, 308].contains(code),
              let location = response.headerFields[.location],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              target.scheme == "http" || target.scheme == "https" else { return nil }
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
