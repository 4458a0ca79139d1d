import HTTPFields
import HTTPTypes

/// Conditional requests built from a stored response, and 304s matched to it (RFC 9111 §4.3.1, §4.3.4).
public enum ConditionalRequest {
    /// `If-None-Match` from the stored ETag and `If-Modified-Since` from the stored
    /// Last-Modified; empty when the stored response has no validator. The ETag goes back as
    /// the server wrote it, so a server that sends unquoted tags recognises its own.
    public static func validators(of entry: StoredResponse) -> [HTTPField] {
        var fields: [HTTPField] = []
        if entry.entityTag != nil, let tag = entry.headerFields.firstValue(for: .eTag) {
            fields.append(HTTPField(name: .ifNoneMatch, value: tag.trimmingWhitespace()))
        }
        if let lastModified = entry.lastModified { fields.append(HTTPField(name: .ifModifiedSince, value: lastModified)) }
        return fields
    }

    /// Whether the caller set conditional headers of its own: such requests pass through, a 304 is theirs.
    public static func carriesOwnConditions(_ request: TransportRequest) -> Bool {
        request.headerFields.contains { conditionalFieldNames.contains($0.name) }
    }

    private static let conditionalFieldNames: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]

    /// Whether a 304 selects the stored response that was validated (§4.3.4): its ETag, when it
    /// has one, must name the stored one.
    ///
    /// The tags are compared weakly, as the origin compared them to answer `If-None-Match`
    /// (RFC 9110 §13.1.2): a compressing front end such as Django's GZipMiddleware stores
    /// `W/"t"` on the 200 but sends `"t"` on the 304, and both name one representation.
    public static func notModified(_ fields: HTTPFields, matches entry: StoredResponse) -> Bool {
        guard let tag = fields.firstValue(for: .eTag).flatMap(EntityTag.lenient) else { return true }
        guard let stored = entry.entityTag else { return false }
        return tag.weaklyMatches(stored)
    }

    /// Whether a 304 to a conditional request the caller built itself selects the stored
    /// response (§4.3.4). The cache did not choose the validator, so a validator the two share
    /// must say so: the ETag as above, else an equal Last-Modified, else neither has any.
    public static func notModifiedByCaller(_ fields: HTTPFields, matches entry: StoredResponse) -> Bool {
        if fields[.eTag] != nil { return notModified(fields, matches: entry) }
        if let lastModified = fields[.lastModified] { return lastModified == entry.lastModified }
        return entry.entityTag == nil && entry.lastModified == nil
    }
}
