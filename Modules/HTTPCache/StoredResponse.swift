import Foundation
import HTTPFields
import HTTPTypes

/// One stored response (a cache entry, RFC 9111 §3) with everything needed to judge it later.
public struct StoredResponse: Sendable, Equatable {
    /// The primary cache key: method and absolute URL (see ``CacheKey``).
    public var key: String
    /// The request's values of the fields named by `Vary`, its credentials' digests and its
    /// certificate check (``CacheKey/variant(vary:requestFields:uncheckedTLS:)``); empty for a
    /// plain request without `Vary`; ``anyVariant`` for an entry that answers any request.
    public var variantKey: String
    public var url: URL
    public var method: HTTPRequest.Method
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data

    /// The variant key of an entry that holds a validator only, stale at once, so the origin
    /// checks it for whoever asks, with the asker's own credentials (a sync's stand-in for a page
    /// the cache lacks: `PageValidatorStorage`). A response `Vary: *` (which this key reads as)
    /// is never stored, so no other entry has it.
    public static let anyVariant = "*"
    /// When the request that produced this response was sent.
    public var requestTime: Date
    /// When the response was received.
    public var responseTime: Date
    /// What is kept of a body the storage left out (``body`` is then empty).
    public var omittedBody: OmittedBody?

    public init(
        key: String, variantKey: String, url: URL, method: HTTPRequest.Method, status: HTTPResponse.Status,
        headerFields: HTTPFields, body: Data, requestTime: Date, responseTime: Date, omittedBody: OmittedBody? = nil
    ) {
        self.key = key
        self.variantKey = variantKey
        self.url = url
        self.method = method
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.omittedBody = omittedBody
    }

    /// The stored `Cache-Control`, parsed.
    public var cacheControl: CacheControl { CacheControl(fieldValues: headerFields[values: .cacheControl]) }
    /// The stored strong or weak validator, if the response had one (an unquoted `ETag: abc`
    /// counts, as clients such as curl count it).
    public var entityTag: EntityTag? { headerFields.firstValue(for: .eTag).flatMap(EntityTag.lenient) }
    /// The stored `Last-Modified` value, verbatim.
    public var lastModified: String? { headerFields.firstValue(for: .lastModified) }

    /// Approximate bytes this entry occupies: body plus header text.
    public var approximateSize: Int {
        body.count + headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }
}
