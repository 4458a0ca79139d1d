import ArgumentParser
import Composition
import CurlTransport
import Foundation
import HTTPCache
import HTTPTypes
import JSON
import NamedSources
import Pacing
import Pagination
import SyncEngine
import SyncOrchestration

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
              after      ?after=<last item's key or member>: keysets, search_after
                         (detected for search hits with sort values); ends at an
                         empty or short page
                         settings: param=NAME, from=MEMBER
              offset     ?offset= (or skip, start); ends at total/count, a short or no page
                         settings: param=NAME, total=MEMBER
              page       ?page= numbers; ends at total_pages or total, an empty/short page,
                         or a 404 past the last page
                         settings: param=NAME, start=N, total-pages=MEMBER, total=MEMBER
              single     one document (an array, an object holding one, or one
                         object, mirrored as one item)
            Every style also takes size=NAME, the page size parameter --limit sets. \
            Bodies may also be NDJSON (a document a line). Items without a key \
            member (scalars, say) are keyed by a hash of their content.

            Collections: each URL (without its paging parameters) is one collection, named \
            after its last path segment unless --name says otherwise; 'fresh collections' \
            lists them, 'fresh items NAME' prints one. A sync that stopped (Ctrl-C, a crash, a \
            rate limit, an error) resumes at the page it stopped on (a key listed twice or a \
            run of pages that list nothing new starts over instead); --restart starts over. \
            --paginate, --items and --key start a new pass when they change how pages are read. Syncs of one collection \
            from several processes run one after the other.

            Faults: 429 and 503 wait for their Retry-After, other 5xx and network failures \
            back off exponentially (1 s, 2 s, 4 s… with jitter), each wait said on stderr, \
            up to --retries tries per page and --max-wait per wait.

            Output: the summary line on stdout (--json: a JSON object); on a terminal a \
            progress line on stderr; -v one line per page; -q nothing but errors. -H fields \
            go to the collection's own origin only. Those that carry no secret are kept for \
            'fresh sync NAME'; a secret (Authorization, Cookie, a name with token or key) is \
            sent for this run only: keep it in a source, as ${VAR} or $(command).

            A partial mirror is never silent: when the pages state a total larger than what \
            was stored (or one that fell while the pass read them), the listing was still \
            moving after the catch-up's 10 pages, the server ignored the page size asked \
            for, a member --paginate \
            names is absent from the first page, or a page lacks the member --items names \
            (read as holding no items), a line says so on stderr and the exit status is 9 \
            (--allow-partial: 0, the line stays).

            Examples:
              fresh sync http://127.0.0.1:8080/posts --limit 100
              fresh sync 'https://api.example.com/v1/users?per_page=50' \\
                  -H "Authorization: Bearer $TOKEN"
              fresh sync http://127.0.0.1:8080/log --key uuid \\
                  --paginate offset:param=skip,size=take
              fresh sync github          (a source: see 'fresh source --help')
              fresh sync --all --watch   (every source and collection, until Ctrl-C)
              curl -s $MOCK/_admin/misses | fresh sync --input-file -
                                         (what a 'fresh-mock --mirror' could not answer)
            """
    )

    @Argument(help: ArgumentHelp("URL of the collection's first page, or the name of a source or of a collection synced before; "
                                 + "with --watch, then how often (30s, 5m, 1h; default: when its pages go stale).",
                                 valueName: "url-or-name [interval]"), completion: NameCompletion.names)
    var words: [String] = []

    @Flag(help: "Sync every source, then every other collection synced before, three at a time.")
    var all = false
    @Option(name: .customLong("input-file"), help: ArgumentHelp(
        "Sync each URL listed in FILE, one a line ('-': standard input; blank lines and # comments skipped), one after another, stopping at the first that fails: what 'fresh-mock --mirror' lists at /_admin/misses.",
        valueName: "file"))
    var inputFile: String?
    @Flag(help: "Sync again and again until Ctrl-C (every INTERVAL given after the name, else when the first page goes stale; a page still fresh costs no request), printing a line only when something changed.")
    var watch = false

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
    @Option(name: [.customShort("H"), .customLong("header")],
            help: ArgumentHelp("Extra header 'Name: value' (repeatable; ${VAR} and $(command) in single quotes are expanded); kept for 'fresh sync NAME' unless it carries a secret.",
                               valueName: "header"))
    var headers: [String] = []

    @Option(help: ArgumentHelp("Incremental syncs: send the largest stored value of MEMBER as the query parameter PARAM, and merge what comes (nothing is removed); the first sync reads everything.",
                               valueName: "param=member"),
            transform: { text in
                guard let spec = SinceSpec(parsing: text) else { throw ValidationError("--since \(text): use PARAM=MEMBER, such as since=updated_at") }
                return spec
            })
    var since: SinceSpec?
    @Flag(help: "A whole pass from the first page that removes what the server no longer lists, even with --since.")
    var full = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Requests in flight at once to the collection's origin (default \(FreshServices.parallel); 1 once it states a rate limit).", valueName: "n"))
    var parallel: Int?

    @Option(help: ArgumentHelp("Cache policy of each page request (see 'fresh get --help').", valueName: "name"),
            transform: { name in
                guard let policy = CachePolicy(name: name) else { throw ValidationError("unknown policy '\(name)'") }
                return policy
            })
    var policy: CachePolicy = .useProtocolCachePolicy
    @Option(name: .customLong("max-time"), parsing: .unconditional, help: ArgumentHelp("Give up on a page request after this many seconds (0: no limit).", valueName: "seconds"))
    var maxTime: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Tries per page after a failure.", valueName: "n"))
    var retries = 3
    @Option(name: .customLong("max-wait"), parsing: .unconditional, help: ArgumentHelp("Longest single wait before a retry, in seconds.", valueName: "seconds"))
    var maxWait = 120.0

    @Option(name: .customLong("max-page-size"), help: ArgumentHelp("Largest page accepted, decoded, e.g. 64M (default); the download, and the decoding of a compressed page, stop there.", valueName: "size"),
            transform: { text in
                guard let bytes = ByteCount.parse(text), bytes > 0 else { throw ValidationError("invalid size '\(text)'") }
                return bytes
            })
    var maxPageSize = 64 * 1024 * 1024

    @Flag(help: "Start a new pass from the first page, even if the last sync did not finish.")
    var restart = false
    @Flag(name: .customLong("allow-partial"), help: "Exit 0 when the mirror may be partial (the line saying why is still printed).")
    var allowPartial = false

    @Flag(name: .shortAndLong, help: "Print one line per page (decision, items, bytes, URL) on stderr.")
    var verbose = false
    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false
    @Flag(help: "Print the summary as a JSON object.")
    var json = false

    @OptionGroup var network: NetworkOptions
    @OptionGroup var storage: StorageOptions
    @OptionGroup var cacheSize: CacheSizeOption

    var target: String? { all || inputFile != nil ? nil : words.first }

    /// `--watch`'s interval, when one is given after the URL or name (or alone, with --all).
    var watchInterval: Duration? {
        get throws {
            guard watch, let text = words.dropFirst(all ? 0 : 1).first else { return nil }
            guard let interval = TimeLimit.interval(text) else { throw ValidationError("--watch: '\(text)' is not an interval like 30s, 5m or 1h") }
            return interval
        }
    }

    func validate() throws {
        if inputFile != nil {
            guard words.isEmpty, !all, !watch, name == nil else {
                throw ValidationError("--input-file names the URLs: give no URL or name, --all, --watch or --name with it")
            }
        }
        let most = (all ? 0 : 1) + (watch ? 1 : 0)
        guard words.count <= most else {
            throw ValidationError(all ? "--all takes no URL or name" + (watch ? ", only an interval" : "")
                                  : "give one URL or name" + (watch ? ", then an interval" : " (an interval goes with --watch)"))
        }
        if watch, !all, words.count == 1, TimeLimit.interval(words[0]) != nil {
            throw ValidationError("--watch \(words[0]): give the URL or name to watch first, or --all")
        }
        _ = try watchInterval
        if all {
            guard name == nil, paginate == nil, items == nil, key == nil, limit == nil, headers.isEmpty, !verbose else {
                throw ValidationError("--all syncs each source and collection with its own options: --name, --paginate, --items, --key, --limit, -H and -v do not apply")
            }
        } else if inputFile == nil {
            guard let target else { throw ValidationError("give the URL of a collection's first page, a name ('fresh source ls', 'fresh collections'), or --all") }
            if target.contains("://") { _ = try ParsedURL.parse(target) }
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let parallel, !(1...64).contains(parallel) { throw ValidationError("--parallel must be 1…64") }
        guard retries >= 0, retries <= 100 else { throw ValidationError("--retries must be 0…100") }
        guard maxWait.isFinite, maxWait >= 0, maxWait <= TimeLimit.maximumSeconds else {
            throw ValidationError("--max-wait must be a number of seconds between 0 and \(Int(TimeLimit.maximumSeconds))")
        }
        if let name, name.isEmpty || name.contains(where: { $0.isNewline || $0 == "/" }) {
            throw ValidationError("--name must be a non-empty name without '/' or line breaks")
        }
        if verbose && quiet { throw ValidationError("--verbose and --quiet cannot be combined") }
        if verbose && watch { throw ValidationError("--watch prints a line for each change; -v does not apply") }
        try TimeLimit.validate(maxTime)
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    /// The stores this line opens, as sources and `--store` name them: those of every source for
    /// `--all` (and a watch of them all), else that of the source named.
    private func mirrorsOpened() throws -> [String?] {
        guard !(target ?? "").contains("://") else { return [nil] }
        let sources = try SourcesFile.located().load()
        if all || target == nil { return MirrorGroups.of(sources, storeFlag: storage.store).map(\.given) }
        return [sources.first { $0.name == target }?.store]
    }

    func execute() async throws {
        // Before anything is done or said here: a PostgreSQL mirror is opened by fresh-postgresql.
        try storage.handOffIfElsewhere(mirrorsOpened())
        CurlTransport.preload()
        defer { CurlTransport.finishPreload() }
        let services = FreshServices(location: storage.location, cacheCapacity: cacheSize.capacity, transport: network.transport)
        let overrides = overrides()
        let output = SyncOutput(json: json, quiet: quiet, allowPartial: allowPartial)
        if watch {
            if let word = target, word.contains("://"), let url = try? ParsedURL.parse(word).url { noteSecretsNotKept(url: url) }
            return try await SyncWatch(target: target, overrides: overrides, output: output, storage: storage, services: services,
                                       interval: try watchInterval).run()
        }
        if all { return try await SyncAll(overrides: overrides, output: output, storage: storage, services: services).run() }
        guard let inputFile else { return try await sync(target ?? "", services: services, overrides: overrides, output: output) }
        let listed = try Self.urls(listedIn: inputFile)
        for (index, entry) in listed.enumerated() {
            do {
                try await sync(entry.url, services: services, overrides: overrides, output: output)
            } catch {
                // What the file asked for that this run left undone (the sync's own error follows).
                let left = listed.count - index - 1
                if left > 0 { StandardError.write("fresh: --input-file stopped at line \(entry.line): \(Plural.count(left, "URL")) after it not synced") }
                throw error
            }
        }
    }

    /// The URLs `--input-file` lists, each with its line number (from 1).
    static func urls(listedIn file: String) throws -> [(line: Int, url: String)] {
        let bytes = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try FileError.contents(of: file, role: "--input-file")
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw FileError.cannotRead(file, role: "--input-file", reason: "not UTF-8 text")
        }
        // A byte-order mark, as some editors write one, is no part of the first URL.
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        var urls: [(line: Int, url: String)] = []
        for (number, line) in lines.enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            do {
                // Two URLs on a line would be sent as one (a space is escaped), to a 400.
                if line.contains(where: \.isWhitespace) { throw ValidationError("'\(line)' is more than one word: one URL a line") }
                _ = try ParsedURL.parse(line)
            } catch let error as ValidationError {
                throw ValidationError("--input-file line \(number + 1): \(error.message)")
            }
            urls.append((number + 1, line))
        }
        return urls
    }

    /// Syncs the collection `word` names (a URL, a source or a collection), printing its summary.
    private func sync(_ word: String, services: FreshServices, overrides: SyncOverrides, output: SyncOutput) async throws {
        let reporter = SyncReporter(mode: quiet ? .quiet : verbose ? .verbose : .progress)
        var resolved: SyncTarget?
        do {
            let sources = word.contains("://") ? [] : try SourcesFile.located().load()
            let summary = try await storage.withMirror(given: sources.first { $0.name == word }?.store, finishing: services) { store in
                // Said once the mirror is open: a data directory that cannot be used is the one error.
                if !quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
                let target = try await SyncTarget.resolve(word, sources: sources, store: store)
                resolved = target
                let options = try overrides.options(for: target)
                if case .url(let url) = target { noteSecretsNotKept(url: url) }
                return try await Interruption.cancellingOnSignal {
                    try await CollectionSync(network: services, store: store).run(options, events: reporter.report)
                }
            }
            reporter.finish()
            if json { try JSONOutput.print(encoding: summary) } else if !quiet { StandardOutput.line(summary.line) }
            if let status = output.partialStatus(of: summary) { throw ExitCode(status) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            reporter.finish()
            let stopped = SyncStopped(underlying: error, written: reporter.lastSummary, hint: Self.hint(for: error, target: resolved))
            if json {
                // A script gets its JSON whatever happened: how far the run got, and why it stopped.
                var summary = reporter.lastSummary ?? SyncSummary()
                summary.error = stopped.description
                try JSONOutput.print(encoding: summary)
            }
            throw stopped
        }
    }

    /// A refusal (401, 403) of a collection synced by its name: its secret `-H` was not kept.
    static func hint(for error: any Error, target: SyncTarget?) -> String? {
        guard case .collection? = target, case SyncError.httpStatus(let code, _, _) = error, code == 401 || code == 403 else { return nil }
        return "a secret -H is not kept with a collection: keep it in a source (fresh source add NAME URL -H 'Authorization: Bearer ${TOKEN}')"
    }

    /// What the command line says over each target's own options.
    func overrides() -> SyncOverrides {
        var overrides = SyncOverrides()
        overrides.name = name
        overrides.paginate = paginate
        overrides.items = items
        overrides.key = key
        overrides.limit = limit
        overrides.headerFields = { [headers] in try HeaderArgument.fields(headers) }
        overrides.userAgent = network.userAgent
        overrides.caFile = network.caFile
        overrides.caDirectory = network.caDirectory
        overrides.insecure = network.insecure
        if !quiet { overrides.unverified = { StandardError.note(NetworkOptions.insecureWarning) } }
        overrides.since = since
        overrides.full = full
        overrides.parallel = parallel
        overrides.policy = policy
        overrides.timeout = TimeLimit.duration(maxTime)
        overrides.retry = RetryPolicy(retries: retries, maximumWait: .milliseconds(Int(maxWait * 1000)))
        overrides.maximumPageSize = maxPageSize
        overrides.restart = restart
        return overrides
    }

    /// A secret given with -H on a plain URL is sent this time only: the note says how to keep it,
    /// with quoting that works as typed (the scheme word kept, the secret a variable).
    private func noteSecretsNotKept(url: URL) {
        // The fields as written (validated already): naming them runs no `$(command)`.
        let secrets = headers.compactMap { try? HeaderArgument.parse($0) }.filter { SecretFields.isSecret($0.0.rawName) }
        guard let (name, value) = secrets.first, !quiet else { return }
        StandardError.note("fresh: note: \(secrets.map(\.0.rawName).joined(separator: ", ")) is used for this run only; to keep it, name a source: "
            + "fresh source add NAME '\(url.absoluteString)' -H '\(name.rawName): \(Self.template(of: value))'")
    }

    /// A secret's value as a source would keep it: its scheme word (`Bearer`, `token`) and `${TOKEN}`.
    static func template(of value: String) -> String {
        let words = value.split(separator: " ", maxSplits: 1)
        return words.count == 2 && words[0].allSatisfy(\.isLetter) ? "\(words[0]) ${TOKEN}" : "${TOKEN}"
    }
}
