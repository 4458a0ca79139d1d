import Foundation
import HTTPTypes

/// Which stored responses an unsafe request invalidates (RFC 9111 §4.4).
enum Invalidation {
    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// A non-error response (2xx or 3xx) to an unsafe method invalidates.
    static func invalidates(method: HTTPRequest.Method, status: HTTPResponse.Status) -> Bool {
        unsafeMethods.contains(method) && (200..<400).contains(status.code)
    }

    /// The request URL plus same-origin `Location` and `Content-Location` targets.
    static func targets(requestURL: URL, responseFields: HTTPFields) -> [URL] {
        var urls = [requestURL]
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = responseFields[name],
                  let url = URL(string: value, relativeTo: requestURL)?.absoluteURL,
                  url.scheme == requestURL.scheme, url.host == requestURL.host, url.port == requestURL.port else { continue }
            urls.append(url)
        }
        return urls
    }
}
