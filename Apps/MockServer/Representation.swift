import Foundation
import HTTPTypes
import Models
import NIOCore

// MARK: - Representation

/// One encoded resource state: the exact body bytes and the validators derived from them.
///
/// Built once per (route, canonical query) and kept by ``MockStore`` until the underlying
/// collection changes, so a 304 or a repeated 200 costs no JSON encoding, hashing or header
/// formatting.
struct Representation: Sendable {
    /// The encoded JSON body.
    let body: ByteBuffer
    /// The strong validator: the hash of ``body``.
    let entityTag: EntityTag
    /// The newest modification time of anything in the representation (whole seconds).
    let lastModified: Date
    /// The `Last-Modified` header value, formatted once.
    let lastModifiedHeader: String
    /// Representation-specific headers such as `Link` and `X-Total-Count`.
    let extraHeaders: HTTPFields
    /// The header form of ``entityTag`` (`"…"`), formatted once.
    let entityTagHeader: String
    /// The representation's own headers of a 200: ``extraHeaders``, `Content-Type`, `ETag` and
    /// `Last-Modified`, assembled once so that a reply only appends the server-wide ones.
    let headers: HTTPFields
    /// The same for a 304, which carries no body headers: without `Content-Type`.
    let notModifiedHeaders: HTTPFields

    /// Encodes `value` with the contract encoder and derives its validators.
    init(encoding value: some Encodable, lastModified: Date, extraHeaders: HTTPFields = [:]) {
        let data = APIJSON.encode(value)
        self.body = ByteBuffer(bytes: data)
        self.entityTag = EntityTag(hashing: data)
        let seconds = lastModified.timeIntervalSince1970.rounded(.down)
        self.lastModified = Date(timeIntervalSince1970: seconds)
        self.lastModifiedHeader = HTTPDate.format(self.lastModified)
        self.extraHeaders = extraHeaders
        self.entityTagHeader = entityTag.headerValue
        var notModified = extraHeaders
        notModified[.eTag] = entityTagHeader
        notModified[.lastModified] = lastModifiedHeader
        self.notModifiedHeaders = notModified
        var headers = extraHeaders
        headers[.contentType] = Reply.jsonContentType
        headers[.eTag] = entityTagHeader
        headers[.lastModified] = lastModifiedHeader
        self.headers = headers
    }
}

// MARK: - APIJSON

/// The contract encoder applied to this server's own values.
enum APIJSON {
    /// The JSON bytes of `value`.
    ///
    /// Everything this server encodes is a plain struct of strings, integers, dates and arrays,
    /// for which `JSONEncoder` cannot fail; a failure would be a programming error.
    static func encode(_ value: some Encodable) -> Data {
        do {
            return try JSONEncoder.api().encode(value)
        } catch {
            preconditionFailure("encoding \(type(of: value)) failed: \(error)")
        }
    }
}
