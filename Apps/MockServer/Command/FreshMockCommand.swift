import ArgumentParser
import Foundation
import MirrorStore

/// `fresh-mock`: runs the mock API until SIGINT or SIGTERM (its `--help` says the rest).
public struct FreshMockCommand: AsyncParsableCommand {
    /// The version `--version` prints and `/openapi.json` states.
    public static let version = "1.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "fresh-mock",
        abstract: "Mock API server: seeded or your own data, every common pagination style, real HTTP validators, faults, a rate limit.",
        discussion: """
            Prints the base URL (e.g. http://127.0.0.1:43127) as the first line on stdout, then serves \
            until SIGINT or SIGTERM. Each request is logged as one line on stderr (--quiet turns it off):
              TIME METHOD PATH?QUERY STATUS BYTES CONDITION DURATION [fault="…"] [miss]
            where CONDITION is the validator header that decided and whether it matched \
            (If-None-Match:matched) or -.

            Seeded routes: /posts (cursor pages, next_cursor "0" at the end), /posts/{id}, /users and \
            /users/{id} (string ids), /articles (Link header), /feed (offset/limit with total), /news \
            (newest first by page or offset, moving with --news-arrivals), /exercises. Every paged route \
            takes since=ISO-TIME: only items updated at or after it.
            With --data FILE.json (a json-server db.json: {"NAME": [{"id": …}, …], …}) each NAME is \
            served instead: GET|POST /NAME, GET|PUT|PATCH|DELETE /NAME/{id}, GET /db; GET /NAME takes \
            json-server's MEMBER=VALUE, q, _sort, _order, _page with _limit or _per_page, and refuses a \
            parameter it does not understand (400, naming it); --watch reads the file again when it changes.
            With --mirror [NAME…] what 'fresh sync' stored (--db-dir, FRESH_HOME, --store, FRESH_STORE) is \
            served: each page at the URL it was fetched from, its body and Link around the stored items, \
            links moved to this server, the origin's ETag and Last-Modified (else a strong tag of what is \
            stored), 304s; any other request is a miss: 404 naming the nearest recorded URL, listed at \
            /_admin/misses for 'fresh sync --input-file'. Mirrors made before pages kept their envelope \
            (before this release) are served with one made from the collection's plan. With --style (and \
            --limit) the stored items are served in that style instead, in their stored order.
            Every collection (posts, users, or yours) in every pagination style: /styles/STYLE/NAME
            \(FreshMockCommand.styleTable)
            Also: /styles (the styles and their URLs), /openapi.json, /_admin/{stats,journal,faults,reset,tick,misses}. \
            See docs/mock-server.md.

            Exit status:
              0   stopped by SIGINT or SIGTERM
              1   unexpected failure
              64  invalid arguments (a bad flag value, --fault, --rate-limit)
              65  the --data file is not an object of arrays of objects with distinct keys
              66  the --data file or the --mirror store cannot be read
              68  --host is not a name or address of this machine
              69  cannot listen: the port is in use or needs privileges
              70  --tls: the certificate could not be made (openssl is missing or failed)
            """,
        version: "fresh-mock \(version)"
    )

    /// One line per style for `--help`: name, shape, end condition.
    static var styleTable: String {
        let width = MockPaginationStyle.allCases.map(\.rawValue.count).max() ?? 0
        return MockPaginationStyle.allCases.map { style in
            "  " + style.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  ends with " + style.endCondition
        }.joined(separator: "\n")
    }

    /// A flag's value parsed by `parse`, whose error becomes a usage error (exit status 64), after `flag: ` if given.
    private static func parsed<Value>(_ spec: String, flag: String? = nil, _ parse: (String) throws -> Value) throws -> Value {
        do { return try parse(spec) } catch { throw ValidationError((flag.map { "\($0): " } ?? "") + "\(error)") }
    }

    // MARK: Listening

    @Option(help: "Interface to bind. Loopback unless you mean to expose it.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "TCP port; 0 picks a free one (read it from the first line of stdout).")
    var port = 8080

    @Flag(help: "Serve HTTPS with a self-signed certificate made at start (by openssl); its file, which clients trust with --cacert, is named on stderr.")
    var tls = false

    @Option(name: .customLong("tls-dir"), help: ArgumentHelp("Make the --tls certificate (ca.pem, key.pem) in this directory and keep it (default: a temporary one, removed on exit); implies --tls.", valueName: "dir"))
    var tlsDirectory: String?

    // MARK: Data

    @Option(help: "Seed of all generated data and of fault draws.")
    var seed: UInt64 = 42

    @Option(parsing: .unconditional, help: "Number of seeded posts (made when a page asks for them: millions cost no memory).")
    var posts = 100

    @Option(parsing: .unconditional, help: "Number of seeded articles.")
    var articles = 95

    @Option(name: .customLong("feed-items"), parsing: .unconditional, help: "Number of seeded feed entries.")
    var feedItems = 250

    @Option(parsing: .unconditional, help: "Number of seeded users (string ids).")
    var users = 60

    @Option(parsing: .unconditional, help: "Number of exercises in /exercises (2500 is about 1 MB).")
    var exercises = 2_500

    @Option(parsing: .unconditional, help: "Number of seeded entries of /news, the newest-first listing.")
    var news = 60

    @Option(
        name: .customLong("news-arrivals"),
        help: ArgumentHelp(
            "Add entries to the front of /news while it is listed, so its pages move.",
            discussion: "N/request (before each request to /news) or N/WINDOW (1/s, 5/2s), then optionally ,max=M.",
            valueName: "spec"),
        transform: { try FreshMockCommand.parsed($0, flag: "--news-arrivals", NewsArrivals.init(spec:)) }
    )
    var newsArrivals: NewsArrivals?

    @Flag(name: .customLong("hostile-text"), help: "Put escape sequences, C1 controls and bidi overrides in one title in three, in error messages and in an X-Mock-Note field.")
    var hostileText = false

    @Option(
        name: .customLong("data"),
        help: ArgumentHelp("Serve the collections of a json-server style db.json instead of the seeded data.", valueName: "file"))
    var dataFile: String?

    @Flag(help: "With --data: read the file again when it changes (looked at on each request), as json-server --watch.")
    var watch = false

    @Option(help: ArgumentHelp("The member of each --data item that holds its key (integers or strings).", valueName: "field"))
    var key = "id"

    @Option(help: ArgumentHelp("Pagination style of GET /NAME (/posts, /articles and /feed keep theirs; default link); with --mirror, serve the stored items in it.", valueName: "style"))
    var style: MockPaginationStyle?

    // MARK: A mirror

    @Flag(help: "Serve what 'fresh sync' stored (the collections named after the flags, else all): each page at the URL it was fetched from, as the origin sent it, with its validators.")
    var mirror = false

    @Argument(help: ArgumentHelp("With --mirror: the collections to serve (default: all).", valueName: "name"))
    var collections: [String] = []

    @Option(name: .customLong("db-dir"), help: ArgumentHelp("With --mirror: the data directory holding data.sqlite (default: FRESH_HOME, else the XDG directory).", valueName: "dir"))
    var dataDirectory: String?

    @Option(help: ArgumentHelp("With --mirror: a PostgreSQL mirror, postgresql://… (default: FRESH_STORE, else the data directory's SQLite file).", valueName: "uri"))
    var store: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --mirror --style: the page size of a request that names none (1…\(PageParameter.maxPageSize); default \(PageParameter.defaultPageSize)).", valueName: "n"))
    var limit: Int?

    // MARK: Caching headers

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: "Cache-Control max-age in seconds.")
    var maxAge = 60

    @Flag(name: .customLong("no-cache"), help: "Add no-cache: clients must revalidate before each reuse.")
    var noCache = false

    @Flag(name: .customLong("no-store"), help: "Send Cache-Control: no-store instead.")
    var noStore = false

    @Flag(name: .customLong("private"), help: "Add private.")
    var isPrivate = false

    @Option(name: .customLong("stale-while-revalidate"), parsing: .unconditional, help: "Add stale-while-revalidate=N.")
    var staleWhileRevalidate: Int?

    @Option(name: .customLong("stale-if-error"), parsing: .unconditional, help: "Add stale-if-error=N.")
    var staleIfError: Int?

    @Flag(name: .customLong("weak-etags"), help: "Send weak entity tags (W/\"…\").")
    var weakETags = false

    // MARK: Misbehaviour and writes

    @Flag(name: .customLong("unstable-etag"), help: "Misbehave: a different ETag on every response.")
    var unstableETag = false

    @Flag(name: .customLong("ignore-conditionals"), help: "Misbehave: ignore If-None-Match / If-Modified-Since.")
    var ignoreConditionals = false

    @Flag(name: .customLong("require-if-match"), help: "Answer 428 to PUT, PATCH and DELETE of an item without If-Match.")
    var requireIfMatch = false

    @Option(name: .customLong("max-body"), parsing: .unconditional, help: "Largest accepted request body in bytes (larger gets 413).")
    var maxBody = 64 * 1024

    @Option(name: .customLong("journal-size"), parsing: .unconditional, help: "How many requests /_admin/journal keeps.")
    var journalSize = 200

    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Allow N API requests per sliding window, answer the rest 429 with Retry-After.",
            discussion: "N/WINDOW, WINDOW = [count]unit with unit ms, s, m (min), h: 10/min, 5/2s, 1000/1h.",
            valueName: "N/window"),
        transform: { try FreshMockCommand.parsed($0, RateLimit.init(spec:)) }
    )
    var rateLimit: RateLimit?

    @Option(
        name: .customLong("rate-limit-status"),
        help: ArgumentHelp("Status of a request over --rate-limit: 429, or 403 as GitHub answers.", valueName: "status"))
    var rateLimitStatus = 429

    @Option(
        name: .customLong("rate-limit-fields"),
        help: ArgumentHelp(
            "Fields that state --rate-limit, comma-separated.",
            discussion: "x-ratelimit (X-RateLimit-Limit, -Remaining, -Reset), ietf (RateLimit-Policy, RateLimit), "
                + "retry-after (on a refusal), or none. Default: x-ratelimit,retry-after.",
            valueName: "names"),
        transform: { try FreshMockCommand.parsed($0, flag: "--rate-limit-fields", RateLimitFields.init(spec:)) }
    )
    var rateLimitFields: RateLimitFields = .standard

    @Option(
        name: .customLong("secondary-limit"),
        help: ArgumentHelp(
            "A limit no field states (as GitHub's secondary limits): more is refused with 403 and no Retry-After.",
            discussion: "N/WINDOW (as --rate-limit) or concurrent=N (requests in flight at once).",
            valueName: "spec"),
        transform: { try FreshMockCommand.parsed($0, flag: "--secondary-limit", SecondaryLimit.init(spec:)) }
    )
    var secondaryLimit: SecondaryLimit?

    @Option(
        name: .customLong("retry-after"),
        help: ArgumentHelp("Form of Retry-After in 429 and 503 answers: seconds or http-date.", valueName: "form"))
    var retryAfter: RetryAfterFormat = .seconds

    // MARK: Output

    @Flag(help: "No request log on stderr.")
    var quiet = false

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Inject a fault (repeatable): key=value pairs separated by commas.",
            discussion: "Keys: route (/posts, /posts/{id}, …; default all API routes), latency, jitter (ms), "
                + "status, failure (status|truncate|close|invalid_json), rate (0…1), first (N), retry-after (s). "
                + "Example: --fault route=/posts,status=503,rate=0.3",
            valueName: "spec"
        ),
        transform: { try FreshMockCommand.parsed($0, FaultRule.init(spec:)) }
    )
    var faults: [FaultRule] = []

    /// Creates the command with every flag at its default (ArgumentParser fills them in).
    public init() {}

    // MARK: Running

    /// Rejects impossible values before anything starts (exit status 64).
    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard [429, 403].contains(rateLimitStatus) else { throw ValidationError("--rate-limit-status must be 429 or 403") }
        guard posts >= 0, articles >= 0, feedItems >= 0, users >= 0, exercises >= 0, news >= 0 else {
            throw ValidationError("collection sizes must not be negative")
        }
        // Unconditional parsing reads `-1` as the value it is, to be refused here, not as a missing one.
        guard maxAge >= 0 else { throw ValidationError("--max-age must not be negative") }
        guard (staleWhileRevalidate ?? 0) >= 0, (staleIfError ?? 0) >= 0 else {
            throw ValidationError("--stale-while-revalidate and --stale-if-error must not be negative")
        }
        guard maxBody > 0, journalSize > 0 else { throw ValidationError("--max-body and --journal-size must be positive") }
        guard !key.isEmpty else { throw ValidationError("--key must not be empty") }
        if watch, dataFile == nil { throw ValidationError("--watch goes with --data") }
        if mirror {
            guard dataFile == nil else { throw ValidationError("--mirror and --data cannot be combined: serve one or the other") }
        } else {
            guard collections.isEmpty else { throw ValidationError("unexpected argument '\(collections[0])' (collection names go with --mirror)") }
            guard dataDirectory == nil, store == nil else { throw ValidationError("--db-dir and --store go with --mirror") }
        }
        if let limit {
            guard mirror, style != nil else { throw ValidationError("--limit goes with --mirror --style") }
            guard (1...PageParameter.maxPageSize).contains(limit) else { throw ValidationError("--limit must be 1…\(PageParameter.maxPageSize)") }
        }
    }

    /// Starts the server, prints its base URL as the first stdout line, serves until SIGINT or SIGTERM.
    public func run() async throws {
        // A closed stderr or stdout must not end the server.
        signal(SIGPIPE, SIG_IGN)
        var configuration = configuration
        let opened = mirror ? try await openMirror() : nil
        if let opened { configuration.mirror = MirrorSource(store: opened, names: collections, repaging: style.map { ($0, limit) }) }
        // Closed however the server ends: the next writer of the file then finds it as it was left
        // (unchecked; a mirror left open is read whole by `PRAGMA quick_check` first).
        let server: RunningMockServer
        do { server = try await RunningMockServer.start(configuration, shutdownSignals: [.sigint, .sigterm]) } catch {
            await opened?.close()
            throw error
        }
        // Unbuffered, so a script reading the first line gets it at once.
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        if let certificate = server.certificatePath {
            FileHandle.standardError.write(Data("fresh-mock: TLS with a self-signed certificate; clients trust it with --cacert \(certificate)\n".utf8))
        }
        let stopped: Result<Void, any Error>
        do { try await server.waitUntilStopped(); stopped = .success(()) } catch { stopped = .failure(error) }
        await opened?.close()
        try stopped.get()
    }

    /// The store `--mirror` serves, opened by the program (``mirrorOpener``).
    private func openMirror() async throws -> any MirrorReading & MirrorMaintenance {
        guard let open = Self.mirrorOpener else { throw MockServerError.cannotOpenMirror("this program cannot open a mirror") }
        do { return try await open(dataDirectory, store) } catch { throw MockServerError.cannotOpenMirror("\(error)") }
    }

    /// How `--mirror` opens the store (a data directory or `nil`, a `--store` or `nil`): given by the
    /// program, which links the stores; the server reads it only through ``MirrorReading``, and
    /// closes it when it stops.
    public typealias MirrorOpener = @Sendable (_ dataDirectory: String?, _ store: String?) async throws -> any MirrorReading & MirrorMaintenance
    nonisolated(unsafe) static var mirrorOpener: MirrorOpener?

    /// The server configuration the flags describe.
    var configuration: MockServerConfiguration {
        MockServerConfiguration(
            host: host, port: port, tlsDirectory: tlsDirectory ?? (tls ? "" : nil), seed: seed, postCount: posts, articleCount: articles,
            feedCount: feedItems, userCount: users, exerciseCount: exercises, newsCount: news, newsArrivals: newsArrivals,
            hostileText: hostileText, dataFile: dataFile, keyField: key, defaultStyle: style ?? .link, watchesDataFile: watch,
            maxAge: maxAge, noCache: noCache, noStore: noStore, isPrivate: isPrivate,
            staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError, weakETags: weakETags,
            unstableETag: unstableETag, ignoreConditionals: ignoreConditionals, requireIfMatch: requireIfMatch,
            maxBodyBytes: maxBody, journalCapacity: journalSize, faults: faults, rateLimit: rateLimit,
            rateLimitStatus: rateLimitStatus, rateLimitFields: rateLimitFields, secondaryLimit: secondaryLimit,
            retryAfterFormat: retryAfter, accessLog: quiet ? .off : .standardError
        )
    }
}

// MARK: - Arguments

extension MockPaginationStyle: ExpressibleByArgument {}
extension RetryAfterFormat: ExpressibleByArgument {}
