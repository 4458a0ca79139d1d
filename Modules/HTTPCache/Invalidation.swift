import Foundation
import HTTPTypes

/// Which stored responses an unsafe request invalidates (RFC 9111 §4.4).
enum Invalidation {
    /// The methods RFC 9110 §9.2.1 defines as safe; every other one, including methods whose
    /// safety is unknown (`PURGE`, `PROPPATCH`), is unsafe.
    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// A non-error response (2xx or 3xx) to an unsafe method invalidates.
    static func invalidates(method: HTTPRequest.Method, status: HTTPResponse.Status) -> Bool {
        !safeMethods.contains(method) && (200..<400).contains(status.code)
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
