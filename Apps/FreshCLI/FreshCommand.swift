import ArgumentParser
import CommandLaunch
import Composition
import SyncEngine

/// `fresh`: the sync CLI. One file per subcommand.
public struct FreshCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fresh",
        abstract: "HTTP with a real cache, and paginated APIs mirrored into SQLite.",
        discussion: """
            fresh keeps every response it may keep in an RFC 9111 cache database, revalidates \
            stale ones with If-None-Match / If-Modified-Since, and explains each decision.

            Databases: the cache in $XDG_CACHE_HOME/fresh/cache.sqlite (disposable), synced \
            items in $XDG_DATA_HOME/fresh/data.sqlite. --db-dir or FRESH_HOME puts both in one \
            directory.

            Exit status:
              0   success
              1   unexpected failure (also: libcurl cannot be loaded)
              3   the server could not be reached, or timed out
              4   the server answered with an error status (sync: after any
                  retries; get --fail: a 4xx status), or its rate limit holds
                  requests for longer than --max-wait
              5   the response was unusable (invalid JSON, a page that cannot be
                  mirrored, a pagination loop, cut short, 304 twice to a request
                  without validators, more redirects than --max-redirs)
              6   a database or a file could not be opened, read or written, or
                  is damaged (a sources file that cannot be read: a directory,
                  not UTF-8); a PostgreSQL store that cannot be reached, a
                  missing role or database, a lost connection
              7   offline mode (also only-if-cached) and nothing stored may answer
              8   get --fail or --fail-with-body: the server answered with a 5xx status
              9   sync: the mirror may be partial (a stated total larger than what
                  was stored or one that fell during the pass, a listing still
                  moving after the catch-up, a page size the server ignored, a
                  member --paginate or --items names absent); --allow-partial
                  makes it 0
              10  the server's TLS certificate cannot be trusted (an unknown or
                  private CA: --cacert, --capath; a wrong name; expired)
              64  invalid arguments (also: an unknown or ambiguous name, an unset
                  ${VAR} in a source's or a -H header, a sources file that reads
                  but is not valid TOML or holds an invalid source)
              130 interrupted (Ctrl-C; a second Ctrl-C stops without waiting)

            Shell completions: fresh --generate-completion-script bash (or zsh, fish); see \
            docs/cli.md.
            """,
        version: "fresh \(FreshServices.version)",
        subcommands: [GetCommand.self, SyncCommand.self, SourceCommand.self, CollectionsCommand.self, ItemsCommand.self, RemoveCommand.self,
                      CheckCommand.self, ExplainCommand.self, CacheCommand.self]
    )

    public init() {}

    /// Runs the command line. Help and version print as usual; every error is one line on
    /// stderr (`fresh: …`) with the exit status documented in `fresh --help`.
    public static func launch(_ arguments: [String]? = nil) async -> Never {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        EarlyCacheOpen.start(for: arguments)
        await CommandLaunch.run(Self.self, arguments: arguments)
    }
}
