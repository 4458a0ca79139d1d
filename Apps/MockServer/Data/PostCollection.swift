import Foundation
import Models

// MARK: - PostCollection

/// The posts, kept in ascending id order, with the keyset page query and the writes.
struct PostCollection: Sendable {
    /// All posts, ascending by id.
    private(set) var posts: [Post]
    /// The id the next created post gets (never reused, even after deletions).
    private(set) var nextID: Int
    /// When each post created at run time was created (seeded posts have always existed).
    private var createdAt: [Int: Date] = [:]
    /// When each deleted id was deleted, so the pages that lost it report a newer Last-Modified.
    private var deletedAt: [Int: Date] = [:]

    init(posts: [Post]) {
        self.posts = posts
        self.nextID = (posts.last?.id ?? 0) + 1
    }

    // MARK: Reading

    /// Up to `limit` posts with an id greater than `afterID`, and whether more follow.
    func page(after afterID: Int, limit: Int) -> (items: ArraySlice<Post>, hasMore: Bool) {
        let start = firstIndex(withIDAbove: afterID)
        let end = min(start + limit, posts.count)
        return (posts[start..<end], end < posts.count)
    }

    /// When the content of the page `page(after: afterID, limit:)` last changed: its newest post,
    /// the newest deletion inside the id range it covers, and (when more follow) the creation of
    /// the post right after it, which is what turned its `next_cursor` from "0" into a cursor.
    func lastModified(ofPageAfter afterID: Int, limit: Int) -> Date {
        let (items, hasMore) = page(after: afterID, limit: limit)
        let coveredIDs = hasMore ? (afterID + 1)...(items.last?.id ?? afterID) : (afterID + 1)...Int.max
        var newest = items.map(\.updatedAt).max() ?? SeedData.epoch
        for (id, date) in deletedAt where coveredIDs.contains(id) {
            newest = max(newest, date)
        }
        if hasMore, let following = posts[safe: items.endIndex], let created = createdAt[following.id] {
            newest = max(newest, created)
        }
        return newest
    }

    /// The post with `id`, if it exists.
    func post(id: Int) -> Post? {
        index(of: id).map { posts[$0] }
    }

    /// The index of the post with `id`, if it exists.
    private func index(of id: Int) -> Int? {
        let index = firstIndex(withIDAbove: id - 1)
        return index < posts.count && posts[index].id == id ? index : nil
    }

    /// Binary search: the index of the first post whose id is greater than `id`.
    private func firstIndex(withIDAbove id: Int) -> Int {
        var low = 0
        var high = posts.count
        while low < high {
            let mid = (low + high) / 2
            if posts[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    // MARK: Writing

    /// Appends a post with the next id.
    mutating func create(_ draft: NewPost, at date: Date) -> Post {
        let post = Post(id: nextID, title: draft.title, body: draft.body, author: draft.author, updatedAt: date)
        posts.append(post)
        createdAt[post.id] = date
        nextID += 1
        return post
    }

    /// Replaces the post with `post.id`; `false` when there is none.
    mutating func update(_ post: Post) -> Bool {
        guard let index = index(of: post.id) else { return false }
        posts[index] = post
        return true
    }

    /// Removes the post with `id`; `false` when there is none.
    mutating func delete(id: Int, at date: Date) -> Bool {
        guard let index = index(of: id) else { return false }
        posts.remove(at: index)
        createdAt[id] = nil
        deletedAt[id] = date
        return true
    }
}

extension Array {
    /// The element at `index`, or `nil` when it is out of bounds.
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
