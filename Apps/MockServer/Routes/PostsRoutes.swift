import Foundation
import HTTPTypes
import Models

/// The writes of `/posts` and `/posts/{id}`, checked against the post schema (every text field
/// present and not blank), and `GET /posts/{id}`. (`GET /posts` is a page: ``PageRoutes``.)
struct PostsRoutes: Sendable {
    let items: ItemResponder

    /// Dispatches a request already matched to `/posts` (POST) or `/posts/{id}`.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        let name = ItemCollection.postsName
        switch request.method {
        case .post:
            let draft = try Self.validated(JSONBody.decode(NewPost.self, from: request.body))
            return try items.create(in: name) { collection, _, now in
                let id = collection.makeIntegerKey()
                return MockItem(post: Post(id: id, title: draft.title, body: draft.body, author: draft.author, updatedAt: now))
            }
        case .get, .head:
            return try items.read(request, in: name)
        case .delete:
            return try items.delete(request, in: name)
        case .put:
            let draft = try Self.validated(JSONBody.decode(NewPost.self, from: request.body))
            return try items.update(request, in: name) { current, _, now in
                Self.changed(current, now) { Post(id: $0.id, title: draft.title, body: draft.body, author: draft.author, updatedAt: $0.updatedAt) }
            }
        default:
            let patch = try JSONBody.decode(PostPatch.self, from: request.body)
            guard patch.title != nil || patch.body != nil || patch.author != nil else {
                throw .invalidField(name: "(body)", message: "a patch needs at least one of title, body, author")
            }
            for (field, value) in [("title", patch.title), ("body", patch.body), ("author", patch.author)] {
                if let value { try JSONBody.requireText(value, field: field) }
            }
            return try items.update(request, in: name) { current, _, now in
                Self.changed(current, now) {
                    Post(id: $0.id, title: patch.title ?? $0.title, body: patch.body ?? $0.body,
                         author: patch.author ?? $0.author, updatedAt: $0.updatedAt)
                }
            }
        }
    }

    // MARK: Helpers

    /// The stored post `current` after `change`, stamped `now` when the change changed anything.
    private static func changed(_ current: MockItem, _ now: Date, _ change: (Post) -> Post) -> MockItem {
        guard let post = current.post else { return current }
        var updated = change(post)
        guard updated != post else { return current }
        updated.updatedAt = now
        return MockItem(post: updated)
    }

    /// `draft` when its text fields all hold text.
    private static func validated(_ draft: NewPost) throws(APIError) -> NewPost {
        try JSONBody.requireText(draft.title, field: "title")
        try JSONBody.requireText(draft.body, field: "body")
        try JSONBody.requireText(draft.author, field: "author")
        return draft
    }
}
