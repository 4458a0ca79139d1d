import Foundation
import JSON

/// The items of an ``ItemCollection``, in ascending key order: held in an array, or, for the
/// seeded posts, made when asked for (``GeneratedPosts``) with the changes made since kept
/// beside them. A generated list holds only what was changed, so ten million posts take the
/// memory of the few a test edits.
struct ItemList: Sendable {
    private enum Storage: Sendable {
        case held([MockItem])
        case generated(GeneratedChanges)
    }

    /// What changed in a generated list: the posts removed (their ids, ascending), those
    /// replaced (by id), and those added after the last generated one (ascending by key).
    private struct GeneratedChanges: Sendable {
        let posts: GeneratedPosts
        var removed: [Int] = []
        var replaced: [Int: MockItem] = [:]
        var added: [MockItem] = []

        /// How many generated posts are still listed.
        var generatedCount: Int { posts.count - removed.count }

        /// The id of the generated post at `index` (below ``generatedCount``): the `index + 1`th
        /// id of 1…count that was not removed.
        func id(at index: Int) -> Int {
            // removed[k] - k - 1 generated ids come before removed[k]; it grows with k.
            index + 1 + (0..<removed.count).partitionPoint { removed[$0] - $0 - 1 <= index }
        }

        /// The index of generated post `id`, if it is listed.
        func index(of id: Int) -> Int? {
            guard (1...posts.count).contains(id) else { return nil }
            let before = removedCount(below: id)
            if before < removed.count && removed[before] == id { return nil }
            return id - 1 - before
        }

        /// How many removed ids are below `id`.
        func removedCount(below id: Int) -> Int {
            (0..<removed.count).partitionPoint { removed[$0] < id }
        }
    }

    private var storage: Storage

    /// `items`, which must be in ascending key order.
    init(sorted items: [MockItem]) { storage = .held(items) }

    /// The posts of `posts`, none changed yet.
    init(generated posts: GeneratedPosts) { storage = .generated(GeneratedChanges(posts: posts)) }

    var count: Int {
        switch storage {
        case .held(let items): items.count
        case .generated(let changes): changes.generatedCount + changes.added.count
        }
    }

    /// The key of the item at `index`, without making the item.
    func key(at index: Int) -> ItemKey {
        switch storage {
        case .held(let items): return items[index].key
        case .generated(let changes):
            return index < changes.generatedCount ? .integer(changes.id(at: index)) : changes.added[index - changes.generatedCount].key
        }
    }

    /// The items at `range`, in order.
    func items(in range: Range<Int>) -> [MockItem] {
        switch storage {
        case .held(let items): return Array(items[range])
        case .generated(let changes):
            let generated = range.clamped(to: 0..<changes.generatedCount)
            var result: [MockItem] = []
            if !generated.isEmpty {
                let ids = generated.map(changes.id(at:))
                let posts = changes.posts.posts(ids[0]...ids[ids.count - 1])
                result = ids.map { id in changes.replaced[id] ?? MockItem(post: posts[id - ids[0]]) }
            }
            let added = range.clamped(to: changes.generatedCount..<count)
            return result + added.map { changes.added[$0 - changes.generatedCount] }
        }
    }

    /// Every item, in order (made, for a generated list).
    var all: [MockItem] { items(in: 0..<count) }

    /// Puts `item` at `index` (where its key belongs).
    mutating func insert(_ item: MockItem, at index: Int) {
        switch storage {
        case .held(var items):
            storage = .held([])
            items.insert(item, at: index)
            storage = .held(items)
        case .generated(var changes):
            if case .integer(let id) = item.key, id <= changes.posts.count {
                // A removed post's id taken again: it is listed where it was, as the new item.
                changes.removed.remove(at: changes.removedCount(below: id))
                changes.replaced[id] = item
            } else {
                changes.added.insert(item, at: index - changes.generatedCount)
            }
            storage = .generated(changes)
        }
    }

    /// Replaces the item at `index` with `item` (of the same key).
    mutating func replace(at index: Int, with item: MockItem) {
        switch storage {
        case .held(var items):
            storage = .held([])
            items[index] = item
            storage = .held(items)
        case .generated(var changes):
            if index < changes.generatedCount { changes.replaced[changes.id(at: index)] = item } else {
                changes.added[index - changes.generatedCount] = item
            }
            storage = .generated(changes)
        }
    }

    /// Removes the item at `index` and returns it.
    mutating func remove(at index: Int) -> MockItem {
        switch storage {
        case .held(var items):
            storage = .held([])
            let removed = items.remove(at: index)
            storage = .held(items)
            return removed
        case .generated(var changes):
            let item = items(in: index..<index + 1)[0]
            if index < changes.generatedCount {
                let id = changes.id(at: index)
                changes.removed.insert(id, at: changes.removedCount(below: id))
                changes.replaced[id] = nil
            } else {
                changes.added.remove(at: index - changes.generatedCount)
            }
            storage = .generated(changes)
            return item
        }
    }

    var largestInteger: Int? {
        switch storage {
        case .held(let items): items.compactMap { if case .integer(let value) = $0.key { value } else { nil } }.max()
        case .generated(let changes):
            (changes.added.compactMap { if case .integer(let value) = $0.key { value } else { nil } } + [changes.posts.count]).max()
        }
    }
}

extension Range<Int> {
    /// Binary search: the first index for which `isBefore` is false (it must hold for a prefix of the range only).
    func partitionPoint(where isBefore: (Int) -> Bool) -> Int {
        var low = lowerBound
        var high = upperBound
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
