import HTTPTypes

// MARK: - Endpoint

/// Every route the server answers, named by its path template (the key of the per-route
/// statistics and of fault scopes, and the paths of `/openapi.json`).
enum Endpoint: String, CaseIterable, Sendable {
    case posts = "/posts"
    case post = "/posts/{id}"
    case articles = "/articles"
    case feed = "/feed"
    case exercises = "/exercises"
    case openAPI = "/openapi.json"
    case stats = "/_admin/stats"
    case journal = "/_admin/journal"
    case faults = "/_admin/faults"
    case reset = "/_admin/reset"
    case tick = "/_admin/tick"

    /// The methods the route accepts (what `Allow` lists on a 405); GET routes accept HEAD too.
    var methods: [HTTPRequest.Method] {
        switch self {
        case .posts: [.get, .head, .post]
        case .post: [.get, .head, .put, .patch, .delete]
        case .articles, .feed, .exercises, .openAPI, .stats, .journal: [.get, .head]
        case .faults: [.get, .head, .put, .delete]
        case .reset, .tick: [.post]
        }
    }

    /// Whether the route steers the server rather than serving API data (never faulted).
    var isAdmin: Bool {
        switch self {
        case .stats, .journal, .faults, .reset, .tick: true
        case .posts, .post, .articles, .feed, .exercises, .openAPI: false
        }
    }

    // MARK: Matching

    /// The route of `path` and, for `/posts/{id}`, the raw id segment; `nil` for unknown paths.
    static func match(_ path: String) -> (endpoint: Endpoint, id: String?)? {
        let trimmed = path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") ? String(path.dropLast()) : path
        if let endpoint = Endpoint(rawValue: trimmed), endpoint != .post {
            return (endpoint, nil)
        }
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        if segments.count == 3, segments[0].isEmpty, segments[1] == "posts", !segments[2].isEmpty {
            return (.post, String(segments[2]))
        }
        return nil
    }
}
