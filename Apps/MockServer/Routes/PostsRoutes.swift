import Foundation
import HTTPTypes
import Models

// MARK: - PostsRoutes

/// `/posts` (cursor pages, create) and `/posts/{id}` (read, replace, patch, delete).
struct PostsRoutes: Sendable {
    /// Page size when the request has no `limit`.
    static let defaultLimit = 20
    /// Largest accepted `limit`.
    static let maxLimit = 100

    let store: MockStore
    let validators: Validators
    let requireIfMatch: Bool

    /// Dispatches a request already matched to `/posts` or `/posts/{id}`.
    func respond(to request: APIRequest) throws(APIError) -> Reply {
        switch (request.endpoint, request.method) {
        case (.posts, .post): try create(request)
        case (.posts, _): try list(request)
        case (.post, .get), (.post, .head): try read(request)
        case (.post, .delete): try delete(request)
        default: try update(request)
        }
    }

    // MARK: Collection

    /// `GET /posts?limit=&cursor=`: keyset page after the cursor's id, `next_cursor` "0" at the end.
    private func list(_ request: APIRequest) throws(APIError) -> Reply {
        let limit = try request.query.integer("limit", default: Self.defaultLimit, in: 1...Self.maxLimit)
        let afterID = try request.query["cursor"].map { (raw) throws(APIError) in try PostCursor(encoded: raw).afterID } ?? 0
        let representation = store.representation(of: .posts, key: "/posts?after=\(afterID)&limit=\(limit)") { data in
            let (items, hasMore) = data.posts.page(after: afterID, limit: limit)
            let next = hasMore ? PostCursor(afterID: items.last?.id ?? afterID).encoded : CursorPage<Post>.endCursor
            return Representation(
                encoding: CursorPage(data: Array(items), nextCursor: next),
                lastModified: data.posts.lastModified(ofPageAfter: afterID, limit: limit)
            )
        }
        return validators.reply(to: request.headers, with: representation)
    }

    /// `POST /posts`: appends a post with the next id; 201 with `Location` and the new `ETag`.
    private func create(_ request: APIRequest) throws(APIError) -> Reply {
        let draft = try Self.validated(JSONBody.decode(NewPost.self, from: request.body))
        let post = try store.write(.posts) { (data: inout MockData) throws(APIError) in
            data.posts.create(draft, at: .nowInWholeSeconds)
        }
        var reply = stored(post, status: .created)
        reply.headers[.location] = "/posts/\(post.id)"
        return reply
    }

    // MARK: Item

    /// `GET /posts/{id}`.
    private func read(_ request: APIRequest) throws(APIError) -> Reply {
        let id = try request.postID()
        let representation = try store.representation(of: .posts, key: "/posts/\(id)") { data throws(APIError) in
            guard let post = data.posts.post(id: id) else { throw .notFound("no post with id \(id)") }
            return Representation(encoding: post, lastModified: post.updatedAt)
        }
        return validators.reply(to: request.headers, with: representation)
    }

    /// `PUT` (whole post) or `PATCH` (some fields) `/posts/{id}`, honouring `If-Match`.
    private func update(_ request: APIRequest) throws(APIError) -> Reply {
        let id = try request.postID()
        let change: (Post) -> Post
        if request.method == .put {
            let draft = try Self.validated(JSONBody.decode(NewPost.self, from: request.body))
            change = { Post(id: $0.id, title: draft.title, body: draft.body, author: draft.author, updatedAt: $0.updatedAt) }
        } else {
            let patch = try JSONBody.decode(PostPatch.self, from: request.body)
            guard patch.title != nil || patch.body != nil || patch.author != nil else {
                throw .invalidField(name: "title", message: "a patch needs at least one of title, body, author")
            }
            for (field, value) in [("title", patch.title), ("body", patch.body), ("author", patch.author)] {
                if let value { try JSONBody.requireText(value, field: field) }
            }
            change = { Post(id: $0.id, title: patch.title ?? $0.title, body: patch.body ?? $0.body,
                            author: patch.author ?? $0.author, updatedAt: $0.updatedAt) }
        }
        let post = try store.write(.posts) { (data: inout MockData) throws(APIError) in
            let current = try checkPreconditions(request, id: id, in: data)
            var updated = change(current)
            guard updated != current else { return current }
            updated.updatedAt = .nowInWholeSeconds
            _ = data.posts.update(updated)
            return updated
        }
        return stored(post, status: .ok)
    }

    /// `DELETE /posts/{id}`, honouring `If-Match`; 204.
    private func delete(_ request: APIRequest) throws(APIError) -> Reply {
        let id = try request.postID()
        try store.write(.posts) { (data: inout MockData) throws(APIError) in
            _ = try checkPreconditions(request, id: id, in: data)
            _ = data.posts.delete(id: id, at: .nowInWholeSeconds)
        }
        return Reply(status: .noContent)
    }

    // MARK: Helpers

    /// The existing post `id` once the write preconditions hold (404, 412, 428 otherwise).
    private func checkPreconditions(_ request: APIRequest, id: Int, in data: MockData) throws(APIError) -> Post {
        guard let current = data.posts.post(id: id) else { throw .notFound("no post with id \(id)") }
        let representation = Representation(encoding: current, lastModified: current.updatedAt)
        try validators.checkWritePreconditions(request.headers, current: representation, required: requireIfMatch)
        return current
    }

    /// The reply to a successful write: the post as `GET /posts/{id}` now returns it, with its `ETag`.
    private func stored(_ post: Post, status: HTTPResponse.Status) -> Reply {
        let representation = Representation(encoding: post, lastModified: post.updatedAt)
        var fields = HTTPFields()
        fields[.contentType] = Reply.jsonContentType
        fields[.eTag] = validators.sentTag(for: representation.entityTag).headerValue
        fields[.lastModified] = representation.lastModifiedHeader
        return Reply(status: status, headers: fields, body: representation.identity.body)
    }

    /// `draft` when its text fields are all non-blank.
    private static func validated(_ draft: NewPost) throws(APIError) -> NewPost {
        try JSONBody.requireText(draft.title, field: "title")
        try JSONBody.requireText(draft.body, field: "body")
        try JSONBody.requireText(draft.author, field: "author")
        return draft
    }
}
