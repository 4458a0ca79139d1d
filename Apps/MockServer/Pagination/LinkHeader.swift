// MARK: - LinkHeader

/// Formats an RFC 8288 `Link` field value: `<URL>; rel="next", <URL>; rel="last"`.
enum LinkHeader {
    /// The field value of `links` in order.
    static func format(_ links: [(url: String, relation: String)]) -> String {
        links.map { "<\($0.url)>; rel=\"\($0.relation)\"" }.joined(separator: ", ")
    }
}
