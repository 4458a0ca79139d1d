// MARK: - PostPatch

/// The body of `PATCH /posts/{id}`: any subset of the writable fields of a post.
struct PostPatch: Codable, Sendable {
    var title: String?
    var body: String?
    var author: String?
}
