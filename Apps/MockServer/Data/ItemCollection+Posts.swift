import Foundation
import Models

/// The seeded `posts` collection read and written as ``Models/Post`` values: `/posts/{id}`
/// validates its bodies against the post schema, where other collections take any object.
extension ItemCollection {
    /// The name of the seeded posts collection.
    static let postsName = "posts"
    /// The name of the seeded newest-first listing, `/news`.
    static let newsName = "news"
}

extension MockItem {
    /// The stored form of `post`.
    init(post: Post) {
        self.init(key: .integer(post.id), value: post, updatedAt: post.updatedAt)
    }

    /// The item as a post (`nil` for an item of another collection).
    var post: Post? {
        try? JSONDecoder.api().decode(Post.self, from: json)
    }
}
