import Foundation

/// One post of the mock API's `/posts` collection. Titles and bodies mix Korean and English on
/// purpose, so every client measures text by display cells rather than by character count.
public struct Post: Codable, Hashable, Sendable, Identifiable {
    /// Stable identifier, unique within the collection.
    public var id: Int
    /// One-line headline.
    public var title: String
    /// Free text; may span several paragraphs.
    public var body: String
    /// Display name of whoever wrote the post.
    public var author: String
    /// When the post last changed (second precision).
    public var updatedAt: Date

    public init(id: Int, title: String, body: String, author: String, updatedAt: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.author = author
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, title, body, author
        case updatedAt = "updated_at"
    }
}

/// The body of `POST /posts` and `PUT /posts/{id}`: a post without the fields the server owns.
public struct NewPost: Codable, Hashable, Sendable {
    public var title: String
    public var body: String
    public var author: String
}
