import Foundation
import Models

/// Everything the API serves, as plain values: the collections by name and, when seeded, the
/// exercise document.
struct MockData: Sendable {
    /// Every collection by name: `posts`, `users`, `articles` and `feed` when seeded, or the
    /// arrays of a `--data` file.
    var collections: [String: ItemCollection]
    /// The `/exercises` document (seeded data only).
    var exercises: ExerciseDatabase?
    /// The stream `/_admin/tick` draws its simulated edits from (restarts on reset).
    var tickRandom: SplitMix64
    /// The stream string keys of created items are drawn from (restarts on reset).
    var keyRandom: SplitMix64
    /// The stream the entries added to `/news` are drawn from (restarts on reset).
    var newsRandom = SplitMix64(seed: 0)

    init(seed: SeedData) {
        let epoch = SeedData.epoch
        collections = [
            ItemCollection.postsName: ItemCollection(name: ItemCollection.postsName, generated: seed.posts, baseline: epoch),
            "users": ItemCollection(
                name: "users", keyField: "id", keyKind: .string,
                items: seed.users.map { MockItem(key: .string($0.id), value: $0, updatedAt: $0.joinedAt) },
                baseline: epoch, generatedKeyPrefix: "usr_"),
            "articles": ItemCollection(
                name: "articles", keyField: "id", keyKind: .integer,
                items: seed.articles.map { MockItem(key: .integer($0.id), value: $0, updatedAt: $0.publishedAt) },
                baseline: epoch),
            "feed": ItemCollection(
                name: "feed", keyField: "id", keyKind: .integer,
                items: seed.feed.map { MockItem(key: .integer($0.id), value: $0, updatedAt: epoch) },
                baseline: epoch),
            ItemCollection.newsName: ItemCollection(
                name: ItemCollection.newsName, keyField: "id", keyKind: .integer, items: seed.news.map(MockItem.init(post:)),
                baseline: epoch),
        ]
        exercises = seed.exercises
        tickRandom = SplitMix64(seed: seed.tickSeed)
        keyRandom = SplitMix64(seed: seed.keySeed)
        newsRandom = SplitMix64(seed: seed.newsSeed)
    }

    /// The collections of a `--data` file, and nothing else.
    init(collections: [ItemCollection], seed: UInt64) {
        self.collections = Dictionary(uniqueKeysWithValues: collections.map { ($0.name, $0) })
        self.exercises = nil
        self.tickRandom = SplitMix64(seed: seed)
        self.keyRandom = SplitMix64(seed: seed ^ 0x0000_0000_004B_4559)
    }

    /// Runs `change` on the collection `name` in place (no copy of its items), or returns `nil`
    /// when there is no such collection.
    mutating func withCollection<Result, Failure: Error>(
        _ name: String, _ change: (inout ItemCollection) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard var collection = collections.removeValue(forKey: name) else { return nil }
        defer { collections[name] = collection }
        return try change(&collection)
    }
}
