import Models

// MARK: - MockData

/// Everything the API serves, as plain values.
struct MockData: Sendable {
    var posts: PostCollection
    var articles: [Article]
    var feed: [FeedItem]
    var exercises: ExerciseDatabase
    /// The stream `/_admin/tick` draws its simulated edits from (restarts on reset).
    var tickRandom: SplitMix64

    init(seed: SeedData) {
        posts = PostCollection(posts: seed.posts)
        articles = seed.articles
        feed = seed.feed
        exercises = seed.exercises
        tickRandom = SplitMix64(seed: seed.tickSeed)
    }
}
