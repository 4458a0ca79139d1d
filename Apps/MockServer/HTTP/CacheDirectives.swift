/// What `Cache-Control` says about the API's representations, from the command-line flags.
struct CacheDirectives: Hashable, Sendable {
    var maxAge: Int
    var noCache: Bool
    var noStore: Bool
    var isPrivate: Bool
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    /// The `Cache-Control` value: `no-store` alone, or e.g. `private, no-cache, max-age=60,
    /// stale-while-revalidate=30, stale-if-error=300`.
    var headerValue: String {
        if noStore { return "no-store" }
        var directives: [String] = []
        if isPrivate { directives.append("private") }
        if noCache { directives.append("no-cache") }
        directives.append("max-age=\(maxAge)")
        if let staleWhileRevalidate { directives.append("stale-while-revalidate=\(staleWhileRevalidate)") }
        if let staleIfError { directives.append("stale-if-error=\(staleIfError)") }
        return directives.joined(separator: ", ")
    }

    /// The policy of `/_admin/…` answers, which reflect live state and must never be reused.
    static let adminHeaderValue = "no-store"
}
