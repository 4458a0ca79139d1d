// MARK: - MockServerConfiguration

/// Everything that shapes a mock server run: where it listens, what data it seeds, what its
/// caching headers say, and how it misbehaves. The command-line flags of `fresh-mock` map
/// one-to-one onto these properties; tests build one directly.
public struct MockServerConfiguration: Sendable {
    // MARK: Listening

    /// Interface to bind; loopback unless deliberately exposed.
    public var host: String
    /// TCP port; `0` lets the OS pick a free one (see ``RunningMockServer/port``).
    public var port: Int

    // MARK: Seeded data

    /// Seed of every generated collection and of fault injection.
    public var seed: UInt64
    /// Number of seeded posts (ids 1…postCount).
    public var postCount: Int
    /// Number of seeded articles.
    public var articleCount: Int
    /// Number of seeded feed entries.
    public var feedCount: Int
    /// Number of exercises in the `/exercises` document (2,500 ≈ 1 MB).
    public var exerciseCount: Int

    // MARK: Caching headers

    /// `Cache-Control: max-age` in seconds (0 is sent as `max-age=0`).
    public var maxAge: Int
    /// Adds `no-cache`: caches must revalidate before every reuse.
    public var noCache: Bool
    /// Sends `no-store` instead of everything else.
    public var noStore: Bool
    /// Adds `private`.
    public var isPrivate: Bool
    /// Adds `stale-while-revalidate=N` when set.
    public var staleWhileRevalidate: Int?
    /// Adds `stale-if-error=N` when set.
    public var staleIfError: Int?
    /// Sends weak entity tags (`W/"…"`).
    public var weakETags: Bool

    // MARK: Misbehaviour

    /// The entity tag changes on every response (a broken server).
    public var unstableETag: Bool
    /// `If-None-Match` / `If-Modified-Since` are ignored: never a 304 (a broken server).
    public var ignoreConditionals: Bool
    /// Writes to `/posts/{id}` without `If-Match` get 428.
    public var requireIfMatch: Bool

    // MARK: Limits and steering

    /// Request bodies larger than this get 413.
    public var maxBodyBytes: Int
    /// How many requests `/_admin/journal` remembers.
    public var journalCapacity: Int
    /// Faults injected from the start (also settable at run time through `/_admin/faults`).
    public var faults: [FaultRule]

    /// A configuration with every default; tests usually change one or two properties.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = 42,
        postCount: Int = 100,
        articleCount: Int = 95,
        feedCount: Int = 250,
        exerciseCount: Int = 2_500,
        maxAge: Int = 60,
        noCache: Bool = false,
        noStore: Bool = false,
        isPrivate: Bool = false,
        staleWhileRevalidate: Int? = nil,
        staleIfError: Int? = nil,
        weakETags: Bool = false,
        unstableETag: Bool = false,
        ignoreConditionals: Bool = false,
        requireIfMatch: Bool = false,
        maxBodyBytes: Int = 64 * 1024,
        journalCapacity: Int = 200,
        faults: [FaultRule] = []
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.postCount = postCount
        self.articleCount = articleCount
        self.feedCount = feedCount
        self.exerciseCount = exerciseCount
        self.maxAge = maxAge
        self.noCache = noCache
        self.noStore = noStore
        self.isPrivate = isPrivate
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.weakETags = weakETags
        self.unstableETag = unstableETag
        self.ignoreConditionals = ignoreConditionals
        self.requireIfMatch = requireIfMatch
        self.maxBodyBytes = maxBodyBytes
        self.journalCapacity = journalCapacity
        self.faults = faults
    }

    // MARK: Derived

    /// The `Cache-Control` policy of the API's representations.
    var cachePolicy: CachePolicy {
        CachePolicy(
            maxAge: maxAge, noCache: noCache, noStore: noStore, isPrivate: isPrivate,
            staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError
        )
    }

    /// The seeded contents.
    var seedData: SeedData {
        SeedData(
            seed: seed, postCount: postCount, articleCount: articleCount,
            feedCount: feedCount, exerciseCount: exerciseCount
        )
    }
}
