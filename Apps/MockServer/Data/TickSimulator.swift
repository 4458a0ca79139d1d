import Foundation
import Models

// MARK: - TickSummary

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
        for _ in 0..<steps {
            var text = TextGenerator(seed: data.tickRandom.next())
            let roll = text.number(below: 100)
            let existing = data.posts.posts
            if roll < 60, !existing.isEmpty {
                var post = existing[text.number(below: existing.count)]
                post.title = text.title()
                post.body = text.body()
                post.updatedAt = date
                _ = data.posts.update(post)
                summary.edited.append(post.id)
            } else if roll < 85 || existing.isEmpty {
                let post = data.posts.create(NewPost(title: text.title(), body: text.body(), author: text.author()), at: date)
                summary.created.append(post.id)
            } else {
                let id = existing[text.number(below: existing.count)].id
                _ = data.posts.delete(id: id, at: date)
                summary.deleted.append(id)
            }
        }
        return summary
    }
}
