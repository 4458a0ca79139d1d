import CompressNIO
import Foundation
import HTTPFields
import HTTPTypes
import Models
import NIOCore

/// One encoded resource state: the exact body bytes, in every content coding worth sending,
/// and the validators derived from them.
///
/// Built once per (route, canonical query) from a ``RepresentationContent`` and kept by
/// ``MockStore`` until a write changes its bytes, so a 304 or a repeated 200 costs no JSON
/// encoding, compression, hashing or header formatting.
struct Representation: Sendable {
    /// Bodies smaller than this are always sent as they are: gzip would save too little.
    static let minimumCompressedSize = 1024

    /// The body in one content coding, with its own validator and prepared headers.
    struct Encoded: Sendable {
        /// The bytes sent (none in a representation rebuilt from its validators alone).
        let body: ByteBuffer
        /// How many bytes the body has: what a 304 saves.
        let bodyLength: Int
        /// The strong validator of these bytes.
        let entityTag: EntityTag
        /// The header form of ``entityTag`` (`"…"`), formatted once.
        let entityTagHeader: String
        /// The headers of a 200 but the server-wide ones: the representation's extra headers,
        /// `Content-Type`, `Content-Encoding`, `ETag` and `Last-Modified`.
        let headers: HTTPFields
        /// The same for a 304, which carries no body headers.
        let notModifiedHeaders: HTTPFields

        init(body: ByteBuffer, bodyLength: Int? = nil, entityTag: EntityTag, contentEncoding: String?, extraHeaders: HTTPFields,
             lastModifiedHeader: String?) {
            self.body = body
            self.bodyLength = bodyLength ?? body.readableBytes
            self.entityTag = entityTag
            self.entityTagHeader = entityTag.description
            var notModified = extraHeaders
            notModified[.eTag] = entityTagHeader
            notModified[.lastModified] = lastModifiedHeader
            self.notModifiedHeaders = notModified
            var headers = extraHeaders
            headers[.contentType] = Reply.jsonContentType
            if let contentEncoding { headers[.contentEncoding] = contentEncoding }
            headers[.eTag] = entityTagHeader
            headers[.lastModified] = lastModifiedHeader
            self.headers = headers
        }
    }

    /// The JSON as it is.
    let identity: Encoded
    /// The JSON gzip-compressed, for bodies of at least ``minimumCompressedSize`` that shrink.
    /// Its entity tag is the identity tag with `-gzip` appended: a different content coding is
    /// a different representation and must not share a strong validator (RFC 9110 §8.8.3).
    let gzip: Encoded?
    /// The newest modification time of anything in the representation (whole seconds); `nil` for
    /// a mirror's page whose origin sent no `Last-Modified`.
    let lastModified: Date?
    /// The `Last-Modified` header value, formatted once.
    let lastModifiedHeader: String?

    /// The headers of its content (a page's `Link`), beside the validators.
    let extraHeaders: HTTPFields
    /// Whether it holds its bodies: one made from its ``validators`` alone answers 304s, never a 200.
    let hasBodies: Bool

    /// The validator of the resource's state: the identity encoding's tag.
    var entityTag: EntityTag { identity.entityTag }
    /// About what it holds in memory, counted against ``MockStore/byteBudget``: its bodies'
    /// storage in every coding (a buffer's capacity, a power of two, not only the bytes it
    /// holds), and what it keeps once they go (``RepresentationValidators/byteCount``).
    var byteCount: Int {
        identity.body.capacity + (gzip?.body.capacity ?? 0) + validators.byteCount
    }

    /// The representation of `content`, compressed when worth it, with its validators.
    init(_ content: RepresentationContent, lastModified: Date) {
        self.init(content, entityTag: Self.entityTag(of: content), lastModified: lastModified.inWholeSeconds)
    }

    /// The representation of `content` with validators given: a mirror's page keeps those its
    /// origin sent (``lastModified`` `nil` when it sent none; the gzip tag, else the identity
    /// tag with `-gzip` after it).
    init(_ content: RepresentationContent, entityTag identityTag: EntityTag, gzipEntityTag: EntityTag? = nil, lastModified: Date?) {
        let data = content.body
        self.extraHeaders = content.headers
        self.hasBodies = true
        self.lastModified = lastModified
        self.lastModifiedHeader = lastModified.map(HTTPDate.format)
        var body = ByteBuffer(bytes: data)
        self.identity = Encoded(body: body, entityTag: identityTag, contentEncoding: nil,
                                extraHeaders: content.headers, lastModifiedHeader: lastModifiedHeader)
        if data.count >= Self.minimumCompressedSize, let compressed = try? body.compress(with: .gzip()),
           compressed.readableBytes < data.count {
            var gzipTag = gzipEntityTag ?? identityTag
            if gzipEntityTag == nil { gzipTag.opaqueTag += "-gzip" }
            // The compressor's buffer has room for the worst case, about the whole body: a page
            // of posts kept 64 KiB for its 5 KB of gzip. The kept copy's buffer is sized for its
            // bytes (to the next power of two, as every buffer: 8 KiB).
            self.gzip = Encoded(body: ByteBuffer(bytes: compressed.readableBytesView), entityTag: gzipTag,
                                contentEncoding: "gzip", extraHeaders: content.headers, lastModifiedHeader: lastModifiedHeader)
        } else {
            self.gzip = nil
        }
    }

    /// The representation of `content` when the time of its last change is exactly known
    /// (single items, documents that never change).
    init(exactly content: RepresentationContent) {
        self.init(content, lastModified: content.changed.date(lastWrite: nil))
    }

    /// The strong validator of `content`: the FNV-1a hash of its body bytes and of the headers
    /// that belong to it (a page's `Link` is part of what the page says).
    static func entityTag(of content: RepresentationContent) -> EntityTag {
        guard !content.headers.isEmpty else { return EntityTag(hashing: content.body) }
        var bytes = content.body
        for field in content.headers {
            bytes.append(contentsOf: Array("\n\(field.name.canonicalName): \(field.value)".utf8))
        }
        return EntityTag(hashing: bytes)
    }

    /// What a 304 needs of it, without its bodies.
    var validators: RepresentationValidators {
        RepresentationValidators(identityTag: identity.entityTag, gzipTag: gzip?.entityTag, identityLength: identity.bodyLength,
                                 gzipLength: gzip?.bodyLength ?? 0, lastModified: lastModified,
                                 extraHeaders: extraHeaders.isEmpty ? nil : extraHeaders)
    }

    /// A representation of kept `validators` alone: it answers a conditional request that still
    /// matches with a 304, as the whole one would, and holds no body.
    init(validators: RepresentationValidators) {
        let extraHeaders = validators.extraHeaders ?? [:]
        self.extraHeaders = extraHeaders
        hasBodies = false
        lastModified = validators.lastModified
        let lastModifiedHeader = validators.lastModified.map(HTTPDate.format)
        self.lastModifiedHeader = lastModifiedHeader
        identity = Encoded(body: ByteBuffer(), bodyLength: validators.identityLength, entityTag: validators.identityTag,
                           contentEncoding: nil, extraHeaders: extraHeaders, lastModifiedHeader: lastModifiedHeader)
        gzip = validators.gzipTag.map { tag in
            Encoded(body: ByteBuffer(), bodyLength: validators.gzipLength, entityTag: tag, contentEncoding: "gzip",
                    extraHeaders: extraHeaders, lastModifiedHeader: lastModifiedHeader)
        }
    }

    /// The encoding to send for a request that prefers `coding`.
    func encoded(as coding: ContentCoding) -> Encoded {
        coding == .gzip ? gzip ?? identity : identity
    }

    /// Whether `condition` names this state in any of its encodings, under strong comparison (If-Match).
    func stronglyMatches(_ condition: EntityTagList) -> Bool {
        condition.stronglyMatches(identity.entityTag) || gzip.map { condition.stronglyMatches($0.entityTag) } == true
    }
}

// MARK: - APIJSON

/// The contract encoder applied to this server's own values.
enum APIJSON {
    /// The JSON bytes of `value`; encoding this server's plain values cannot fail (a failure is a programming error).
    static func encode(_ value: some Encodable) -> Data {
        do {
            return try JSONEncoder.api().encode(value)
        } catch {
            preconditionFailure("encoding \(type(of: value)) failed: \(error)")
        }
    }
}
