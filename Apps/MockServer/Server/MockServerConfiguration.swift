/// Everything that shapes a mock server run: where it listens, what data it serves, what its
/// caching headers say, how it misbehaves, and what it logs. The command-line flags of `fresh-mock` map
/// one-to-one onto these properties; tests build one directly.
public struct MockServerConfiguration: Sendable {
    // MARK: Listening

    /// Interface to bind; loopback unless deliberately exposed.
    public var host: String = "127.0.0.1"
    /// TCP port; `0` lets the OS pick a free one (see ``RunningMockServer/port``).
    public var port: Int = 0
    /// Serve HTTPS with a self-signed certificate made at start (`--tls`), its files in this
    /// directory (a new temporary one when empty); `nil` for plain HTTP.
    public var tlsDirectory: String?

    // MARK: Seeded data

    /// Seed of every generated collection and of fault injection.
    public var seed: UInt64 = 42
    /// Number of seeded posts (ids 1…postCount).
    public var postCount: Int = 100
    /// Number of seeded articles.
    public var articleCount: Int = 95
    /// Number of seeded feed entries.
    public var feedCount: Int = 250
    /// Number of seeded users (string ids).
    public var userCount: Int = 60
    /// Number of exercises in the `/exercises` document (2,500 ≈ 1 MB).
    public var exerciseCount: Int = 2_500
    /// Number of seeded entries of `/news`, the newest-first listing.
    public var newsCount: Int = 60
    /// Entries added to `/news` while it is listed (`--news-arrivals`); `nil`: it stands still.
    public var newsArrivals: NewsArrivals?
    /// Titles, error messages and a header field carry terminal controls (`--hostile-text`, ``HostileText``).
    public var hostileText: Bool = false

    // MARK: Your own data

    /// A json-server style `db.json` to serve instead of the seeded data (`--data`).
    public var dataFile: String?
    /// The member of each item of `dataFile` that holds its key (`--key`).
    public var keyField: String = "id"
    /// The pagination style of `GET /NAME` (`--style`); `/posts`, `/articles` and `/feed` keep theirs.
    public var defaultStyle: MockPaginationStyle = .link
    /// `--watch`: read the `--data` file again when it changes.
    public var watchesDataFile = false
    /// `--mirror`: serve a mirror's pages instead of seeded or `--data` collections.
    public var mirror: MirrorSource?

    // MARK: Caching headers

    /// `Cache-Control: max-age` in seconds (0 is sent as `max-age=0`).
    public var maxAge: Int = 60
    /// Adds `no-cache`: caches must revalidate before every reuse.
    public var noCache: Bool = false
    /// Sends `no-store` instead of everything else.
    public var noStore: Bool = false
    /// Adds `private`.
    public var isPrivate: Bool = false
    /// Adds `stale-while-revalidate=N` when set.
    public var staleWhileRevalidate: Int?
    /// Adds `stale-if-error=N` when set.
    public var staleIfError: Int?
    /// Sends weak entity tags (`W/"…"`).
    public var weakETags: Bool = false

    // MARK: Misbehaviour

    /// The entity tag changes on every response (a broken server).
    public var unstableETag: Bool = false
    /// `If-None-Match` / `If-Modified-Since` are ignored: never a 304 (a broken server).
    public var ignoreConditionals: Bool = false
    /// Writes to `/posts/{id}` without `If-Match` get 428.
    public var requireIfMatch: Bool = false

    // MARK: Limits and steering

    /// Request bodies larger than this get 413.
    public var maxBodyBytes: Int = 64 * 1024
    /// How many requests `/_admin/journal` remembers.
    public var journalCapacity: Int = 200
    /// Faults injected from the start (also settable at run time through `/_admin/faults`).
    public var faults: [FaultRule] = []
    /// Requests allowed per window on the API routes (`--rate-limit`); `nil` for no limit.
    public var rateLimit: RateLimit?
    /// The status of a request over ``rateLimit``: 429, or 403 as GitHub answers (`--rate-limit-status`).
    public var rateLimitStatus: Int = 429
    /// The fields that state ``rateLimit`` (`--rate-limit-fields`).
    public var rateLimitFields: RateLimitFields = .standard
    /// A limit no field states (`--secondary-limit`); `nil` for none.
    public var secondaryLimit: SecondaryLimit?
    /// The form of `Retry-After` in 429 and 503 answers.
    public var retryAfterFormat: RetryAfterFormat = .seconds

    // MARK: Request log

    /// Where the one-line-per-request log goes (`off` unless set; the command sets standard error).
    public var accessLog: AccessLogDestination = .off

    // MARK: Derived

    /// The `Cache-Control` policy of the API's representations.
    var cachePolicy: CacheDirectives {
        CacheDirectives(maxAge: maxAge, noCache: noCache, noStore: noStore, isPrivate: isPrivate,
                    staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError)
    }

    var seedData: SeedData {
        SeedData(seed: seed, postCount: postCount, articleCount: articleCount, feedCount: feedCount, userCount: userCount,
                 exerciseCount: exerciseCount, newsCount: newsCount, hostileText: hostileText)
    }

    /// The data to serve: the `--data` file's collections, or the seeded data.
    /// - Throws: ``DataFileError`` when the file cannot be read or is not an object of arrays.
    func loadData() throws(DataFileError) -> MockData {
        guard let dataFile else { return MockData(seed: seedData) }
        return MockData(collections: try DataFile.load(path: dataFile, keyField: keyField), seed: seed)
    }

    /// Every default, for code outside this module (inside it, and in tests, the memberwise initialiser).
    public static let defaults = MockServerConfiguration()
}
