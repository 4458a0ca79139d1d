// MARK: - MockServerConfiguration

/// Everything that shapes a mock server run: where it listens, what data it serves, what its
/// caching headers say, how it misbehaves, and what it logs. The command-line flags of `fresh-mock` map
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
    /// Number of seeded users (string ids).
    public var userCount: Int
    /// Number of exercises in the `/exercises` document (2,500 ≈ 1 MB).
    public var exerciseCount: Int

    // MARK: Your own data

    /// A json-server style `db.json` to serve instead of the seeded data (`--data`).
    public var dataFile: String?
    /// The member of each item of `dataFile` that holds its key (`--key`).
    public var keyField: String
    /// The pagination style of `GET /NAME` (`--style`); `/posts`, `/articles` and `/feed` keep theirs.
    public var defaultStyle: PaginationStyle

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
    /// Requests allowed per window on the API routes (`--rate-limit`); `nil` for no limit.
    public var rateLimit: RateLimit?
    /// The form of `Retry-After` in 429 and 503 answers.
    public var retryAfterFormat: RetryAfterFormat

    // MARK: Request log

    /// Where the one-line-per-request log goes (`off` unless set; the command sets standard error).
    public var accessLog: AccessLogDestination

    /// A configuration with every default; tests usually change one or two properties.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = 42,
        postCount: Int = 100,
        articleCount: Int = 95,
        feedCount: Int = 250,
        userCount: Int = 60,
        exerciseCount: Int = 2_500,
        dataFile: String? = nil,
        keyField: String = "id",
        defaultStyle: PaginationStyle = .link,
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
        faults: [FaultRule] = [],
        rateLimit: RateLimit? = nil,
        retryAfterFormat: RetryAfterFormat = .seconds,
        accessLog: AccessLogDestination = .off
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.postCount = postCount
        self.articleCount = articleCount
        self.feedCount = feedCount
        self.userCount = userCount
        self.exerciseCount = exerciseCount
        self.dataFile = dataFile
        self.keyField = keyField
        self.defaultStyle = defaultStyle
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
        self.rateLimit = rateLimit
        self.retryAfterFormat = retryAfterFormat
        self.accessLog = accessLog
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
            feedCount: feedCount, userCount: userCount, exerciseCount: exerciseCount
        )
    }

    /// The data to serve: the `--data` file's collections, or the seeded data.
    /// - Throws: ``DataFileError`` when the file cannot be read or is not an object of arrays.
    func loadData() throws(DataFileError) -> MockData {
        guard let dataFile else { return MockData(seed: seedData) }
        return MockData(collections: try DataFile.load(path: dataFile, keyField: keyField), seed: seed)
    }
}
