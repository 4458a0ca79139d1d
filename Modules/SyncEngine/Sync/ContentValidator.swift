import Foundation
import HTTPCache
import HTTPFields
import HTTPTypes

/// What identifies the content of a page response, stored with the page's items: its ETag, else
/// the digest of its body (the cache's ``OmittedBody`` one when it came from there). A later 304 or
/// fresh hit with the same validator means the stored items are current and nothing is written
/// (a killed sync that stored the response in the HTTP cache but not its items is caught this way).
///
/// A weak tag counts as its opaque tag, as `If-None-Match` compares them: servers that compress
/// (Django's GZipMiddleware) weaken the tag of the compressed 200 and send the strong one on the
/// 304 that confirms the same content.
enum ContentValidator {
    static func of(_ response: CachedResponse) -> String {
        if let field = response.headerFields[.eTag] {
            return "etag " + (EntityTag.lenient(field).map { EntityTag(opaqueTag: $0.opaqueTag).description } ?? field)
        }
        return "fnv1a64 " + (response.omittedBody?.digest ?? FNV1a64.hex(response.body))
    }
}

extension String {
    /// The `ETag` a content validator was made from (`nil` for a body digest).
    var eTagValue: String? { hasPrefix("etag ") ? String(dropFirst("etag ".count)) : nil }
}
