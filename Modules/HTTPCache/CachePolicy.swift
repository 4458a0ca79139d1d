/// How a request uses the cache, after `URLRequest.CachePolicy`.
public enum CachePolicy: String, Sendable, CaseIterable, Codable {
    /// RFC 9111 as written: fresh entries answer at once, stale ones are revalidated,
    /// and the request's own `Cache-Control` is honoured. The default.
    case useProtocolCachePolicy
    /// Ignore what is stored and download; store the new response if it may be stored.
    case reloadIgnoringLocalCacheData
    /// Like ``reloadIgnoringLocalCacheData``, and also send `Cache-Control: no-cache` and
    /// `Pragma: no-cache` so caches on the way reload too.
    case reloadIgnoringLocalAndRemoteCacheData
    /// Always ask the origin, conditionally when something is stored, even if it is fresh.
    case reloadRevalidatingCacheData
    /// Use what is stored whatever its age; download only when nothing is stored.
    case returnCacheDataElseLoad
    /// Use what is stored whatever its age; never touch the network (offline mode).
    case returnCacheDataDontLoad

    /// The short name the CLI accepts.
    public var shortName: String {
        switch self {
        case .useProtocolCachePolicy: "protocol"
        case .reloadIgnoringLocalCacheData: "reload"
        case .reloadIgnoringLocalAndRemoteCacheData: "reload-all"
        case .reloadRevalidatingCacheData: "revalidate"
        case .returnCacheDataElseLoad: "cache-else-load"
        case .returnCacheDataDontLoad: "cache-only"
        }
    }

    /// Finds a policy by its short name or its full name.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.shortName == name || $0.rawValue == name }) else { return nil }
        self = policy
    }

    var ignoresStoredData: Bool { self == .reloadIgnoringLocalCacheData || self == .reloadIgnoringLocalAndRemoteCacheData }
    var acceptsAnyAge: Bool { self == .returnCacheDataElseLoad || self == .returnCacheDataDontLoad }
}
