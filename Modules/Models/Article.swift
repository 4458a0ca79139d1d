import Foundation

/// One item of `GET /articles?page=&per_page=`, which pages with an RFC 8288 `Link` header
/// and reports the collection size in `X-Total-Count`.
public struct Article: Codable, Hashable, Sendable, Identifiable {
    public var id: Int
    public var title: String
    public var summary: String
    public var publishedAt: Date

    public init(id: Int, title: String, summary: String, publishedAt: Date) {
        self.id = id
        self.title = title
        self.summary = summary
        self.publishedAt = publishedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, title, summary
        case publishedAt = "published_at"
    }
}
