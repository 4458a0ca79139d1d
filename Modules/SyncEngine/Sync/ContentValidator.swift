import Foundation
import HTTPTypes

/// What identifies the content of a page response, stored with the page's items: its ETag,
/// else its Last-Modified, else a digest of the body. A later 304 or fresh hit that carries the
/// same validator means the stored items are the page's current content, and nothing is
/// written; anything else is written (a killed sync that stored the response in the HTTP
/// cache but not its items is caught this way).
enum ContentValidator {
    static func of(headerFields: HTTPFields, body: Data) -> String {
        if let tag = headerFields[.eTag] { return "etag " + tag }
        if let modified = headerFields[.lastModified] { return "modified \(modified) \(body.count)" }
        return "fnv1a64 " + FNV1a64.hex(body)
    }
}
