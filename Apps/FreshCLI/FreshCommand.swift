import ArgumentParser

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
              1   unexpected failure
              3   the server could not be reached, or timed out
              4   the server answered with an error status (sync, after any retries; get with --fail)
              5   the response was unusable (invalid JSON, a page that cannot be mirrored, a
                  pagination loop, cut short, unexpected 304)
              6   a database or a file could not be opened or written, or is damaged
              7   offline mode and nothing is stored for the URL
              64  invalid arguments (also: an unknown or ambiguous collection name)
              130 interrupted (Ctrl-C)
            """,
        subcommands: [GetCommand.self, SyncCommand.self, CollectionsCommand.self, ItemsCommand.self, RemoveCommand.self,
                      CheckCommand.self, ExplainCommand.self, CacheCommand.self]
    )

    public init() {}
}

extension FreshCommand {
    /// Runs the command line. Help and version print as usual; every error is one line on
    /// stderr (`fresh: …`) with the exit status documented in `fresh --help`.
    public static func launch(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit()
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let message = fullMessage(for: error).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.first
            if let message {
                let cleaned = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
                StandardError.write("fresh: \(cleaned) (see 'fresh --help')")
            }
            exit(withError: ExitCode(code.rawValue))
        }
    }
}
