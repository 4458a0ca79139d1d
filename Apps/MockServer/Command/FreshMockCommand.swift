import ArgumentParser
import Foundation

// MARK: - FreshMockCommand

/// `fresh-mock`: runs the mock API until SIGINT or SIGTERM.
///
/// The first line on stdout is the base URL (flushed at once), so scripts can start it with
/// `--port 0` and read where it listens.
public struct FreshMockCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fresh-mock",
        abstract: "Mock API server with seeded data, real HTTP validators, pagination, faults and statistics.",
        discussion: """
            Prints the base URL (e.g. http://127.0.0.1:43127) as the first line on stdout, then serves \
            until SIGINT or SIGTERM. Routes: /posts, /posts/{id}, /articles, /feed, /exercises, \
            /openapi.json and /_admin/{stats,journal,faults,reset,tick}. See docs/mock-server.md.
            """
    )

    // MARK: Listening

    @Option(help: "Interface to bind. Loopback unless you mean to expose it.")
    var host = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one (read it from the first line of stdout).")
    var port = 8080

    // MARK: Data

    @Option(help: "Seed of all generated data and of fault draws.")
    var seed: UInt64 = 42

    @Option(help: "Number of seeded posts.")
    var posts = 100

    @Option(help: "Number of seeded articles.")
    var articles = 95

    @Option(name: .customLong("feed-items"), help: "Number of seeded feed entries.")
    var feedItems = 250

    @Option(help: "Number of exercises in /exercises (2500 is about 1 MB).")
    var exercises = 2_500

    // MARK: Caching headers

    @Option(name: .customLong("max-age"), help: "Cache-Control max-age in seconds.")
    var maxAge = 60

    @Flag(name: .customLong("no-cache"), help: "Add no-cache: clients must revalidate before each reuse.")
    var noCache = false

    @Flag(name: .customLong("no-store"), help: "Send Cache-Control: no-store instead.")
    var noStore = false

    @Flag(name: .customLong("private"), help: "Add private.")
    var isPrivate = false

    @Option(name: .customLong("stale-while-revalidate"), help: "Add stale-while-revalidate=N.")
    var staleWhileRevalidate: Int?

    @Option(name: .customLong("stale-if-error"), help: "Add stale-if-error=N.")
    var staleIfError: Int?

    @Flag(name: .customLong("weak-etags"), help: "Send weak entity tags (W/\"…\").")
    var weakETags = false

    // MARK: Misbehaviour and writes

    @Flag(name: .customLong("unstable-etag"), help: "Misbehave: a different ETag on every response.")
    var unstableETag = false

    @Flag(name: .customLong("ignore-conditionals"), help: "Misbehave: ignore If-None-Match / If-Modified-Since.")
    var ignoreConditionals = false

    @Flag(name: .customLong("require-if-match"), help: "Answer 428 to writes on /posts/{id} without If-Match.")
    var requireIfMatch = false

    @Option(name: .customLong("max-body"), help: "Largest accepted request body in bytes (larger gets 413).")
    var maxBody = 64 * 1024

    @Option(name: .customLong("journal-size"), help: "How many requests /_admin/journal keeps.")
    var journalSize = 200

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Inject a fault (repeatable): key=value pairs separated by commas.",
            discussion: "Keys: route (/posts, /posts/{id}, …; default all API routes), latency, jitter (ms), "
                + "status, failure (status|truncate|close|invalid_json), rate (0…1), first (N), retry-after (s). "
                + "Example: --fault route=/posts,status=503,rate=0.3",
            valueName: "spec"
        ),
        transform: { spec in
            do { return try FaultRule(spec: spec) } catch { throw ValidationError("--fault \(spec): \(error)") }
        }
    )
    var faults: [FaultRule] = []

    /// Creates the command with every flag at its default (ArgumentParser fills them in).
    public init() {}

    // MARK: Running

    /// Rejects impossible values before anything starts (exit status 64).
    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard posts >= 0, articles >= 0, feedItems >= 0, exercises >= 0 else {
            throw ValidationError("collection sizes must not be negative")
        }
        guard maxAge >= 0 else { throw ValidationError("--max-age must not be negative") }
        guard maxBody > 0, journalSize > 0 else { throw ValidationError("--max-body and --journal-size must be positive") }
    }

    /// Starts the server, prints its base URL as the first stdout line, serves until SIGINT or SIGTERM.
    public func run() async throws {
        let server = try await RunningMockServer.start(configuration, shutdownSignals: [.sigint, .sigterm])
        // Unbuffered, so a script reading the first line gets it at once.
        FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
        try await server.waitUntilStopped()
    }

    /// The server configuration the flags describe.
    var configuration: MockServerConfiguration {
        MockServerConfiguration(
            host: host, port: port, seed: seed, postCount: posts, articleCount: articles, feedCount: feedItems,
            exerciseCount: exercises, maxAge: maxAge, noCache: noCache, noStore: noStore, isPrivate: isPrivate,
            staleWhileRevalidate: staleWhileRevalidate, staleIfError: staleIfError, weakETags: weakETags,
            unstableETag: unstableETag, ignoreConditionals: ignoreConditionals, requireIfMatch: requireIfMatch,
            maxBodyBytes: maxBody, journalCapacity: journalSize, faults: faults
        )
    }
}

// MARK: - Entry point

extension FreshMockCommand {
    /// Parses the process arguments and runs the server; the whole of `fresh-mock`'s `main.swift`.
    ///
    /// (Called from an async function so the asynchronous `main()` overload is the one chosen.)
    public static func runFromCommandLine() async {
        await main()
    }
}
