import Foundation
import HTTPTypes

/// What identifies the content of a page response, stored with the page's items: its ETag,
/// else the digest of its body (the one ``PageValidatorStorage`` kept when the body came from
/// the cache). A later 304 or fresh hit that carries the same validator means the stored items
/// are the page's current content, and nothing is written; anything else is written (a killed
/// sync that stored the response in the HTTP cache but not its items is caught this way).
enum ContentValidator {
    static func of(headerFields: HTTPFields, body: Data) -> String {
        if let tag = headerFields[.eTag] { return "etag " + tag }
        return "fnv1a64 " + (headerFields[PageValidatorStorage.digestField] ?? FNV1a64.hex(body))
    }
}
