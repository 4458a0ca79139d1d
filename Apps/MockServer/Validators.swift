import Foundation
import HTTPTypes
import Synchronization

// MARK: - Validators

/// Turns a ``Representation`` into a 200 or a 304 for a GET, and checks write preconditions,
/// following RFC 9110 §13.2.2 (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since)
/// and the configured misbehaviours.
final class Validators: Sendable {
    /// `Cache-Control` of every representation, formatted once.
    private let cacheControl: HTTPField
    /// `Vary` of every representation.
    private static let vary = HTTPField(name: .vary, value: "Accept-Encoding")
    private let weakETags: Bool
    private let unstableETag: Bool
    private let ignoreConditionals: Bool
    /// Responses sent so far, mixed into the entity tag by `--unstable-etag`.
    private let responseCounter = Atomic<Int>(0)

    init(configuration: MockServerConfiguration) {
        self.cacheControl = HTTPField(name: .cacheControl, value: configuration.cachePolicy.headerValue)
        self.weakETags = configuration.weakETags
        self.unstableETag = configuration.unstableETag
        self.ignoreConditionals = configuration.ignoreConditionals
    }

    // MARK: Reading

    /// The entity tag as sent for `representation` (weak or unstable when configured).
    func sentTag(for representation: Representation) -> EntityTag {
        var tag = representation.entityTag
        tag.isWeak = weakETags
        if unstableETag {
            let count = responseCounter.wrappingAdd(1, ordering: .relaxed).newValue
            tag.opaque += "-\(count)"
        }
        return tag
    }

    /// The 200 with the representation, or a 304 when the request's validators still match.
    ///
    /// Starts from the headers the representation prepared once, so the common reply only
    /// appends `Cache-Control` and `Vary`.
    func reply(to headers: HTTPFields, with representation: Representation) -> Reply {
        let notModified = !ignoreConditionals && isNotModified(headers, representation: representation)
        // A 304 repeats the validators and caching headers but carries no body or body headers.
        var fields = notModified ? representation.notModifiedHeaders : representation.headers
        if weakETags || unstableETag {
            fields[.eTag] = sentTag(for: representation).headerValue
        }
        fields.append(cacheControl)
        fields.append(Self.vary)
        if notModified {
            var reply = Reply(status: .notModified, headers: fields)
            reply.bytesSaved = representation.body.readableBytes
            return reply
        }
        return Reply(status: .ok, headers: fields, body: representation.body)
    }

    /// If-None-Match (weak comparison) wins; If-Modified-Since counts only without it.
    private func isNotModified(_ headers: HTTPFields, representation: Representation) -> Bool {
        if let ifNoneMatch = headers[.ifNoneMatch] {
            // The usual revalidation echoes the one tag it was sent: no parsing needed.
            if ifNoneMatch == representation.entityTagHeader { return true }
            return EntityTagCondition(headerValue: ifNoneMatch)?.matchesWeakly(representation.entityTag) ?? false
        }
        if let ifModifiedSince = headers[.ifModifiedSince], let date = HTTPDate.parse(ifModifiedSince) {
            return representation.lastModified <= date
        }
        return false
    }

    // MARK: Writing

    /// Checks If-Match (strong comparison) and If-Unmodified-Since before a write to a resource
    /// whose current state is `current` (`nil` when it does not exist).
    func checkWritePreconditions(_ headers: HTTPFields, current: Representation?, required: Bool) throws(APIError) {
        if let ifMatch = headers[.ifMatch] {
            guard let condition = EntityTagCondition(headerValue: ifMatch) else {
                throw .preconditionFailed("If-Match is not a list of entity tags")
            }
            guard let current, condition.matchesStrongly(current.entityTag) else {
                throw .preconditionFailed("If-Match does not match the current entity tag")
            }
            return
        }
        if let ifUnmodifiedSince = headers[.ifUnmodifiedSince], let date = HTTPDate.parse(ifUnmodifiedSince) {
            guard let current, current.lastModified <= date else {
                throw .preconditionFailed("the resource changed after If-Unmodified-Since")
            }
            return
        }
        if required { throw .preconditionRequired }
    }
}
