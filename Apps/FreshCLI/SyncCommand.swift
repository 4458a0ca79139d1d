import ArgumentParser
import Foundation
import HTTPCache
import SyncEngine

/// `fresh sync URL`: every page of a cursor-paginated collection into the item database.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Pull every page of a cursor-paginated JSON API into the local item database.",
        discussion: """
            Follows next_cursor from page to page ({"data": [...], "next_cursor": "..."}, "0" \
            at the end). Every page goes through the HTTP cache, so unchanged pages cost a 304 \
            or nothing at all. Each page's items (upserted by id) and its cursor are written in \
            one transaction: an interrupted sync leaves whole pages only.

            Prints one summary line: pages, requests sent, 200s, 304s, fresh hits, body bytes.

            Example:
              fresh sync http://127.0.0.1:8080/posts --limit 20
            """
    )

    @Argument(help: ArgumentHelp("URL of the collection's first page.", valueName: "url"))
    var target: ParsedURL

    @Option(help: ArgumentHelp("Page size to ask for (the server's default when omitted).", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Cache policy of each page request (see 'fresh get --help').", valueName: "name"),
            transform: { name in
                guard let policy = CachePolicy(name: name) else { throw ValidationError("unknown policy '\(name)'") }
                return policy
            })
    var policy: CachePolicy = .useProtocolCachePolicy

    @Option(name: .customLong("max-time"), help: ArgumentHelp("Give up on a page request after this many seconds.", valueName: "seconds"))
    var maxTime: Double?

    @Flag(name: .shortAndLong, help: "Print one line per page with its cache decision on stderr.")
    var verbose = false

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        try TimeLimit.validate(maxTime)
    }

    func run() async throws {
        try await FailureReport.run {
            let services = FreshServices(location: storage.location, cacheCapacity: storage.cacheCapacity)
            let items = try services.openItemDatabase()
            services.warnings.forEach { StandardError.write("fresh: warning: \($0)") }
            let sync = PostSync(client: services.client, items: items)
            let verbose = verbose
            let summary = try await services.finishing {
                try await Interruption.cancellingOnSignal {
                    try await sync.run(url: target.url, limit: limit, policy: policy,
                                       timeout: TimeLimit.duration(maxTime)) { index, response in
                        if verbose {
                            StandardError.write("fresh: page \(index): \(response.decision.label), \(response.decision.bytesReceived) bytes — \(TerminalText.sanitized(response.url.absoluteString))")
                        }
                    }
                }
            }
            print(summary.line)
        }
    }
}
