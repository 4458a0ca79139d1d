import Foundation
import Models
import Synchronization

/// The seeded posts 1…count, made when they are asked for, so `--posts 10000000` costs nothing
/// until a client reads it.
///
/// Post *n* is drawn from the seed's stream after posts 1…*n*-1. The stream's state (one number)
/// is kept every ``stride`` posts as they are made, and a post is made from the nearest kept
/// state before it: a page reads at most ``stride`` posts it does not return.
final class GeneratedPosts: Sendable {
    /// How many posts apart the kept states are.
    static let stride = 128

    let count: Int
    private let hostileText: Bool
    /// The stream's state before posts 1, 1 + stride, 1 + 2·stride, …, as far as posts were made.
    private let states: Mutex<[TextGenerator]>

    /// - Parameter hostileText: one post in three gets a title from ``HostileText``.
    init(seed: UInt64, count: Int, hostileText: Bool) {
        self.count = count
        self.hostileText = hostileText
        states = Mutex([TextGenerator(seed: seed)])
    }

    /// Posts `ids` (within 1…count), in order.
    func posts(_ ids: ClosedRange<Int>) -> [Post] {
        precondition(ids.lowerBound >= 1 && ids.upperBound <= count, "post ids out of range")
        let wanted = (ids.lowerBound - 1) / Self.stride
        var (text, id) = states.withLock { states in
            let known = min(wanted, states.count - 1)
            return (states[known], known * Self.stride + 1)
        }
        var made: [(index: Int, state: TextGenerator)] = []
        var posts: [Post] = []
        posts.reserveCapacity(ids.count)
        while id <= ids.upperBound {
            if (id - 1) % Self.stride == 0 { made.append(((id - 1) / Self.stride, text)) }
            let post = Self.post(id, from: &text, hostileText: hostileText)
            if id >= ids.lowerBound { posts.append(post) }
            id += 1
        }
        states.withLock { states in
            // Only states that extend the list: another request may have kept them first.
            for (index, state) in made where index == states.count { states.append(state) }
        }
        return posts
    }

    /// Post `id`, drawn from `text` (which moves past it).
    static func post(_ id: Int, from text: inout TextGenerator, hostileText: Bool) -> Post {
        let offset = TimeInterval(id * 3600 + text.number(below: 3600))
        var title = text.title()
        if hostileText, HostileText.marks(id) { title = HostileText.sample(id) }
        return Post(id: id, title: title, body: text.body(), author: text.author(),
                    updatedAt: SeedData.epoch.addingTimeInterval(offset))
    }
}
