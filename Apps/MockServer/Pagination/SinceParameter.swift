import Foundation

/// `since=ISO-TIME` on a paged route (RFC 3339: an offset or `Z`, seconds with or without a
/// fraction): only the items updated at or after that time (as GitHub's `since`), so a client can ask for what changed since its last sync. The links of its pages
/// carry it on.
struct SinceParameter: Sendable, Equatable {
    static let name = "since"

    let date: Date
    /// The value as the request gave it.
    let text: String

    /// The `since` of `query`; `nil` without one.
    init?(_ query: QueryParameters) throws(APIError) {
        guard let text = try query.text(Self.name) else { return nil }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = ISO8601DateFormatter().date(from: text) ?? fractional.date(from: text) else {
            throw .invalidQuery(name: Self.name, message: "'\(text)' is not an ISO 8601 time such as 2024-01-01T00:00:00Z")
        }
        self.date = date
        self.text = text
    }

    /// `&since=…`, percent-encoded, for the links of a page and the key of its representation.
    var queryPart: String {
        "&\(Self.name)=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text)
    }

    /// Whether `item` was updated at or after the time.
    func includes(_ item: MockItem) -> Bool { item.updatedAt >= date }
}
