import Foundation
import Models

// MARK: - Posts

/// The seeded `posts` collection read and written as ``Models/Post`` values: `/posts/{id}`
/// validates its bodies against the post schema, where other collections take any object.
extension ItemCollection {
    /// The name of the seeded posts collection.
    static let postsName = "posts"

    /// The `posts` collection holding `posts`.
    static func posts(_ posts: [Post], baseline: Date) -> ItemCollection {
        ItemCollection(
            name: postsName, keyField: "id", keyKind: .integer,
            items: posts.map(MockItem.init(post:)), baseline: baseline
        )
    }

    /// Appends a post with the next id, stamped `date`.
    mutating func create(_ draft: NewPost, at date: Date) -> Post {
        let post = Post(id: makeIntegerKey(), title: draft.title, body: draft.body, author: draft.author, updatedAt: date)
        _ = insert(MockItem(post: post))
        return post
    }

    /// Replaces the post with `post.id`; `false` when there is none.
    mutating func update(_ post: Post) -> Bool {
        replace(MockItem(post: post))
    }
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
