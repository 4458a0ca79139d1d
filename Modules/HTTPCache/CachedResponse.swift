import Foundation
import HTTPTypes

/// A response as ``CachingClient`` returns it: from storage, from the network, or both
/// (a 304 merged into the stored response), with the decision that produced it.
public struct CachedResponse: Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var headerFields: HTTPFields
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL
    /// What the cache did and why; for redirects, the decision of the last hop.
    public var decision: CacheDecision
    /// The protocol version of the status line the origin sent (`HTTP/2`); a stored response
    /// answers as `HTTP/1.1`, the version of the cache's own messages.
    public var version: String
    /// What the storage kept of a body it left out (see ``OmittedBody``); `nil` when it is here.
    public var omittedBody: OmittedBody?
    /// The redirects followed to reach this response, in order, without their bodies: what
    /// `curl -i -L` shows before the last response.
    public var redirects: [CachedResponse] = []

    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data, url: URL, decision: CacheDecision,
                version: String = "HTTP/1.1", omittedBody: OmittedBody? = nil) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.url = url
        self.decision = decision
        self.version = version
        self.omittedBody = omittedBody
    }
}

/// Why the caching client produced no response at all.
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `returnCacheDataDontLoad` (offline mode) and nothing is stored for the URL.
    case notStored(String)
    /// A 304 arrived but no stored response matches it.
    case unexpectedNotModified(String)
    /// More redirects than the caller allowed; the URL is the last one reached.
    case tooManyRedirects(String, limit: Int)
    /// A redirect from the URL whose `Location` is no http(s) URL.
    case unfollowableRedirect(String, location: String)

    public var description: String {
        switch self {
        case .notStored(let url): "offline and nothing is stored for \(url)"
        case .unexpectedNotModified(let url): "server answered 304 Not Modified for \(url) but nothing matching is stored"
        case .tooManyRedirects(let url, let limit): "maximum (\(limit)) redirects followed, the next from \(url)"
        case .unfollowableRedirect(let url, let location): "\(url) redirects to '\(location)', which is no http or https URL to follow"
        }
    }
}
