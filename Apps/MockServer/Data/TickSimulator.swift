import Foundation
import Models

/// What one `POST /_admin/tick?n=` changed.
struct TickSummary: Codable, Sendable, Equatable {
    var edited: [Int] = []
    var created: [Int] = []
    var deleted: [Int] = []
}

// MARK: - TickSimulator

/// Simulated activity on `/posts`: each step edits a post (60 %), creates one (25 %) or deletes
/// one (15 %), choosing from the seeded tick stream so the same seed and steps give the same changes.
enum TickSimulator {
    /// Applies `steps` changes to `data`, stamped `date`.
    static func run(steps: Int, on data: inout MockData, at date: Date) -> TickSummary {
        var summary = TickSummary()
        var random = data.tickRandom
        _ = data.withCollection(ItemCollection.postsName) { posts in
            for _ in 0..<steps {
                step(on: &posts, text: TextGenerator(seed: random.next()), at: date, into: &summary)
            }
        }
        data.tickRandom = random
        return summary
    }

    private static func step(on posts: inout ItemCollection, text: TextGenerator, at date: Date, into summary: inout TickSummary) {
        var text = text
        let roll = text.number(below: 100)
        let count = posts.count
        if roll < 60, count > 0, var post = posts.item(posts.items.key(at: text.number(below: count)))?.post {
            post.title = text.title()
            post.body = text.body()
            post.updatedAt = date
            _ = posts.replace(MockItem(post: post))
            summary.edited.append(post.id)
        } else if roll < 85 || count == 0 {
            let post = Post(id: posts.makeIntegerKey(), title: text.title(), body: text.body(), author: text.author(), updatedAt: date)
            _ = posts.insert(MockItem(post: post))
            summary.created.append(post.id)
        } else {
            let key = posts.items.key(at: text.number(below: count))
            _ = posts.remove(key)
            if case .integer(let id) = key { summary.deleted.append(id) }
        }
    }
}
