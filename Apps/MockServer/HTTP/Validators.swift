import Foundation
import HTTPFields
import HTTPTypes
import Synchronization

/// Turns a ``Representation`` into a 200 or a 304 for a GET, and checks write preconditions,
/// following RFC 9110 §13.2.2 (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since)
/// and the configured misbehaviours.
final class Validators: Sendable {
    /// `Cache-Control` of every representation, formatted once.
    private let cacheControl: HTTPField
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

    /// `tag` as sent (weak or unstable when configured).
    func sentTag(for tag: EntityTag) -> EntityTag {
        var tag = tag
        tag.isWeak = weakETags
        if unstableETag {
            let count = responseCounter.wrappingAdd(1, ordering: .relaxed).newValue
            tag.opaqueTag += "-\(count)"
        }
        return tag
    }

    /// The 200 with the representation, or a 304 when the request's validators still match, in
    /// the encoding `Accept-Encoding` allows (gzip when the representation has one), whose
    /// validators are the ones compared.
    func reply(to headers: HTTPFields, with representation: Representation) -> Reply {
        let (encoded, condition) = self.condition(of: headers, for: representation)
        let notModified = condition?.result == .matched
        precondition(notModified || representation.hasBodies, "a representation without its bodies answers 304s only")
        // A 304 repeats the validators and caching headers but carries no body or body headers.
        var fields = notModified ? encoded.notModifiedHeaders : encoded.headers
        if weakETags || unstableETag {
            fields[.eTag] = sentTag(for: encoded.entityTag).description
        }
        fields.append(cacheControl)
        fields.append(Self.vary)
        guard notModified else { return Reply(status: .ok, headers: fields, body: encoded.body, condition: condition) }
        return Reply(status: .notModified, headers: fields, bytesSaved: encoded.bodyLength, condition: condition)
    }

    /// Whether ``reply(to:with:)`` answers these request headers with a 304: all that a
    /// representation without its bodies can answer.
    func answersNotModified(_ headers: HTTPFields, with representation: Representation) -> Bool {
        condition(of: headers, for: representation).condition?.result == .matched
    }

    /// The encoding `headers` get of `representation`, and what their conditions say of it.
    private func condition(of headers: HTTPFields, for representation: Representation) -> (encoded: Representation.Encoded, condition: ConditionalOutcome?) {
        let encoded = representation.encoded(as: ContentCoding.preferred(acceptEncoding: headers[.acceptEncoding]))
        return (encoded, evaluate(headers, encoded: encoded, lastModified: representation.lastModified))
    }

    /// If-None-Match (weak comparison) wins; If-Modified-Since counts only without it. `nil`
    /// when the request has neither (or an unparseable date).
    private func evaluate(_ headers: HTTPFields, encoded: Representation.Encoded, lastModified: Date?) -> ConditionalOutcome? {
        let header: HTTPField.Name
        let matched: Bool
        if let ifNoneMatch = headers[.ifNoneMatch] {
            header = .ifNoneMatch
            // The usual revalidation echoes the one tag it was sent: no parsing needed.
            matched = ifNoneMatch == encoded.entityTagHeader
                || EntityTagList(fieldValue: ifNoneMatch)?.weaklyMatches(encoded.entityTag) == true
        } else if let ifModifiedSince = headers[.ifModifiedSince], let date = HTTPDate.parse(ifModifiedSince), let lastModified {
            header = .ifModifiedSince
            matched = lastModified <= date
        } else {
            return nil
        }
        return ConditionalOutcome(header: header, result: ignoreConditionals ? .ignored : matched ? .matched : .unmatched)
    }

    // MARK: Writing

    /// Checks If-Match (strong comparison) and If-Unmodified-Since before a write to a resource
    /// whose current state is `current` (`nil` when it does not exist); returns the header that
    /// held, if any.
    func checkWritePreconditions(
        _ headers: HTTPFields, current: Representation?, required: Bool
    ) throws(APIError) -> ConditionalOutcome? {
        if let ifMatch = headers[.ifMatch] {
            guard let condition = EntityTagList(fieldValue: ifMatch) else {
                throw .preconditionFailed(header: .ifMatch, message: "If-Match is not a list of entity tags")
            }
            guard let current, current.stronglyMatches(condition) else {
                throw .preconditionFailed(header: .ifMatch, message: "If-Match does not match the current entity tag")
            }
            return ConditionalOutcome(header: .ifMatch, result: .matched)
        }
        if let ifUnmodifiedSince = headers[.ifUnmodifiedSince], let date = HTTPDate.parse(ifUnmodifiedSince) {
            guard let current, let lastModified = current.lastModified, lastModified <= date else {
                throw .preconditionFailed(header: .ifUnmodifiedSince, message: "the resource changed after If-Unmodified-Since")
            }
            return ConditionalOutcome(header: .ifUnmodifiedSince, result: .matched)
        }
        if required { throw .preconditionRequired }
        return nil
    }
}

extension MockStore {
    /// The reply to a GET of `key` with these request `headers`: the current representation (built
    /// by `build` when it must be) through `validators`, a 200 or a 304; a page kept without its
    /// bodies answers a 304 as it is.
    func reply<Failure: Error>(
        to headers: HTTPFields, of dataset: Dataset, key: String, validators: Validators,
        build: (MockData) throws(Failure) -> RepresentationContent
    ) throws(Failure) -> Reply {
        let representation = try representation(of: dataset, key: key, answersWithoutBody: { validators.answersNotModified(headers, with: $0) },
                                                build: build)
        return validators.reply(to: headers, with: representation)
    }
}
