import ArgumentParser
import CurlTransport
import Foundation
import HTTPCache
import JSON
import Pagination
import SyncEngine

/// `fresh sync URL`: every page of a paginated JSON API into the item database.
struct SyncCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Mirror every page of a paginated JSON API into the local item database.",
        discussion: """
            Fetches the first page, works out how the pages link (the style), where the items \
            are and which member keys them, then follows the pages to the last one. Every page \
            goes through the HTTP cache: an unchanged page costs a 304 or nothing, and is not \
            rewritten (a page fresh only by the Last-Modified heuristic is asked again, \
            conditionally). Pages are asked for compressed and decoded; the summary gives the \
            bytes received and, when they differ, decoded. Items are kept whole, as the JSON the server sent, keyed by (collection, \
            key). A page's items are written in one transaction; the end of a complete pass \
            deletes the items no page listed any more.

            Pagination styles (detected from the first page, or --paginate STYLE[:NAME=VALUE,…]):
              link       Link: <…>; rel="next" header (GitHub); ends without rel="next"
              next-url   next page URL in the body: next, links.next, _links.next.href,
                         paging.next, @odata.nextLink, next_page_url…; ends at null or ""
                         settings: path=MEMBER
              cursor     a cursor in the body sent back as a query parameter: next_cursor,
                         meta.next_cursor, response_metadata.next_cursor, nextPageToken…;
                         ends at null, absent, "", "0" or has_more: false
                         settings: path=MEMBER, param=NAME, has-more=MEMBER
              has-more   has_more with ?starting_after=<last item's key> (Stripe)
                         settings: path=MEMBER, param=NAME
              offset     ?offset= (or skip, start); ends at total/count, or a short/empty page
                         settings: param=NAME, total=MEMBER
              page       ?page= numbers; ends at total_pages or total, an empty/short page,
                         or a 404 past the last page
                         settings: param=NAME, start=N, total-pages=MEMBER, total=MEMBER
              single     one document (an array, or an object holding one)
            Every style also takes size=NAME, the page size parameter --limit sets.

            Collections: each URL (without its paging parameters) is one collection, named \
            after its last path segment unless --name says otherwise; 'fresh collections' \
            lists them, 'fresh items NAME' prints one. A sync that stopped (Ctrl-C, a crash, a \
            rate limit, an error) resumes at the page it stopped on; --restart starts over. \
            --paginate, --items and --key always start a new pass. Syncs of one collection \
            from several processes run one after the other.

            Faults: 429 and 503 wait for their Retry-After, other 5xx and network failures \
            back off exponentially (1 s, 2 s, 4 s… with jitter), each wait said on stderr, \
            up to --retries tries per page and --max-wait per wait.

            Output: the summary line on stdout (--json: a JSON object); on a terminal a \
            progress line on stderr; -v one line per page; -q nothing but errors. -H fields \
            go to the collection's own origin only and are never stored.

            Examples:
              fresh sync http://127.0.0.1:8080/posts --limit 100
              fresh sync 'https://api.example.com/v1/users?per_page=50' -H 'Authorization: Bearer …'
              fresh sync http://127.0.0.1:8080/log --paginate offset:param=skip,size=take --key uuid
            """
    )

    @Argument(help: ArgumentHelp("URL of the collection's first page.", valueName: "url"))
    var target: ParsedURL

    @Option(help: ArgumentHelp("Name of the collection (default: the URL's last path segment).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Pagination style, when detection is wrong: \(PaginationStyle.names.joined(separator: ", ")), with settings after a colon.",
                               valueName: "style[:name=value,…]"),
            transform: { text in
                do { return try PaginateSpec(parsing: text) } catch { throw ValidationError("--paginate \(text): \(error)") }
            })
    var paginate: PaginateSpec?

    @Option(help: ArgumentHelp("Where the items are in a page, e.g. data or results.items (default: detected).", valueName: "path"),
            transform: { text in
                guard let path = JSONPath(parsing: text) else { throw ValidationError("--items \(text): not a member path like data or results.items") }
                return path
            })
    var items: JSONPath?

    @Option(help: ArgumentHelp("Member that keys an item, string or number (default: id, else _id, uuid, key, slug…).", valueName: "path"),
            transform: { text in
                guard let path = JSONPath(parsing: text), !path.isRoot else { throw ValidationError("--key \(text): not a member path like id or user.login") }
                return path
            })
    var key: JSONPath?

    @Option(parsing: .unconditional, help: ArgumentHelp("Page size to ask for, set on the URL's size parameter (limit, per_page, page_size…; default: the server's).", valueName: "n"))
    var limit: Int?
    @Option(name: .customShort("H"), help: ArgumentHelp("Extra header 'Name: value' (repeatable), e.g. Authorization; never stored.", valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Cache policy of each page request (see 'fresh get --help').", valueName: "name"),
            transform: { name in
                guard let policy = CachePolicy(name: name) else { throw ValidationError("unknown policy '\(name)'") }
                return policy
            })
    var policy: CachePolicy = .useProtocolCachePolicy
    @Option(name: .customLong("max-time"), parsing: .unconditional, help: ArgumentHelp("Give up on a page request after this many seconds (0: no limit).", valueName: "seconds"))
    var maxTime: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Tries per page after a failure (default 3).", valueName: "n"))
    var retries = 3
    @Option(name: .customLong("max-wait"), parsing: .unconditional, help: ArgumentHelp("Longest single wait before a retry, in seconds (default 120).", valueName: "seconds"))
    var maxWait = 120.0

    @Option(name: .customLong("max-page-size"), help: ArgumentHelp("Largest page accepted, decoded, e.g. 64M (default); the download stops there.", valueName: "size"),
            transform: { text in
                guard let bytes = ByteCount.parse(text), bytes > 0 else { throw ValidationError("invalid size '\(text)'") }
                return bytes
            })
    var maxPageSize = 64 * 1024 * 1024

    @Flag(help: "Start a new pass from the first page, even if the last sync did not finish.")
    var restart = false

    @Flag(name: .shortAndLong, help: "Print one line per page (decision, items, bytes, URL) on stderr.")
    var verbose = false
    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false
    @Flag(help: "Print the summary as a JSON object.")
    var json = false

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        guard retries >= 0, retries <= 100 else { throw ValidationError("--retries must be 0…100") }
        guard maxWait.isFinite, maxWait >= 0, maxWait <= TimeLimit.maximumSeconds else {
            throw ValidationError("--max-wait must be a number of seconds between 0 and \(Int(TimeLimit.maximumSeconds))")
        }
        if let name, name.isEmpty || name.contains(where: { $0.isNewline || $0 == "/" }) {
            throw ValidationError("--name must be a non-empty name without '/' or line breaks")
        }
        if verbose && quiet { throw ValidationError("--verbose and --quiet cannot be combined") }
        try TimeLimit.validate(maxTime)
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    func execute() async throws {
        let reporter = SyncReporter(mode: quiet ? .quiet : verbose ? .verbose : .progress)
        CurlTransport.preload()
        defer { CurlTransport.finishPreload() }
        let services = FreshServices(location: storage.location, cacheCapacity: storage.cacheCapacity)
        let options = try syncOptions()
        do {
            let summary = try await services.finishing {
                try await storage.withMirror { store in
                    // Said once the mirror is open: a data directory that cannot be used is the one error.
                    if !quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
                    return try await Interruption.cancellingOnSignal {
                        try await CollectionSync(services: services, store: store).run(options, events: reporter.report)
                    }
                }
            }
            reporter.finish()
            if json { try Self.printJSON(summary) } else if !quiet { print(summary.line) }
        } catch {
            reporter.finish()
            let stopped = SyncStopped(underlying: error, written: reporter.lastSummary)
            if json {
                // A script gets its JSON whatever happened: how far the run got, and why it stopped.
                var summary = reporter.lastSummary ?? SyncSummary()
                summary.error = stopped.description
                try Self.printJSON(summary)
            }
            throw stopped
        }
    }

    private func syncOptions() throws -> SyncOptions {
        var options = SyncOptions(url: target.url)
        options.name = name
        options.overrides = PaginationDetector.Overrides(paginate: paginate, items: items, key: key)
        options.limit = limit
        options.headerFields = try HeaderArgument.fields(headers)
        options.policy = policy
        options.timeout = TimeLimit.duration(maxTime)
        options.retry = RetryPolicy(retries: retries, maximumWait: .milliseconds(Int(maxWait * 1000)))
        options.maximumPageSize = maxPageSize
        options.restart = restart
        return options
    }

    /// `--json`: the summary as one JSON object, its keys sorted so the output is stable.
    private static func printJSON(_ summary: SyncSummary) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(summary), as: UTF8.self))
    }
}
