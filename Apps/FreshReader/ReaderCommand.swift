import ArgumentParser
import Foundation
import Glibc
import Models
import Storage
import SyncEngine
import TerminalText

/// `fresh-reader`: browse the synced posts in the terminal, offline first.
public struct ReaderCommand: AsyncParsableCommand {
    /// The version `--version` prints.
    public static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "fresh-reader",
        abstract: "Browse the synced posts in the terminal, offline first.",
        discussion: """
            fresh-reader shows the posts that `fresh sync` stored in the local item database \
            at once, without waiting for the network, then refreshes them from the server in \
            the background. When the server cannot be reached it keeps showing what is stored \
            and says "offline" in the status line.

            The collection refreshed is --url if given, else the first collection synced \
            before (`fresh sync URL` records it). Every refresh asks the server, conditionally: \
            unchanged pages cost a 304.

            Keys in the list:
              j, Down          next post
              k, Up            previous post
              PgDn, Space      next screen
              PgUp, b          previous screen
              g, Home          first post
              G, End           last post
              Enter            open the post
              r                refresh from the server in the background
              q, Esc           quit

            Keys in a post:
              j, k, Up, Down   scroll one line
              PgDn, PgUp       scroll one screen (also Space, b)
              g, G, Home, End  top, bottom
              q, Esc           back to the list
              r                refresh

            Status line: the number of stored posts, then "refreshing…", "updated HH:MM:SS", \
            "offline, showing stored posts (reason)" or "error: reason".

            Text from the server is shown with control characters made visible, so a post \
            cannot send escape sequences to the terminal. Columns are measured in display \
            cells, so Hangul and emoji line up.

            Files: data.sqlite (synced posts) and cache.sqlite (HTTP cache) in --db-dir, else \
            $FRESH_HOME, else $XDG_DATA_HOME/fresh and $XDG_CACHE_HOME/fresh.

            Exit status:
              0   quit with q or Esc, Ctrl-C, SIGTERM or SIGHUP (the terminal is restored)
              1   unexpected failure
              2   standard input/output is not a terminal, or the terminal cannot be used
              6   a database could not be opened or read
              64  invalid arguments

            Examples:
              fresh sync http://127.0.0.1:8080/posts && fresh-reader
              fresh-reader --db-dir /tmp/fresh --url http://127.0.0.1:8080/posts
            """,
        version: "fresh-reader \(version)"
    )

    @Option(name: .customLong("db-dir"), help: ArgumentHelp(
        "Directory holding data.sqlite and cache.sqlite (default: FRESH_HOME, else the XDG directories).",
        valueName: "dir"))
    var databaseDirectory: String?

    @Option(help: ArgumentHelp(
        "Collection to refresh, e.g. http://127.0.0.1:8080/posts (default: the first one synced before).",
        valueName: "url"))
    var url: String?

    /// Required by ArgumentParser; the options are filled in by parsing.
    public init() {}

    /// Rejects a `--url` that is not http(s) before anything is opened.
    public func validate() throws {
        if let url, Self.httpURL(url) == nil {
            throw ValidationError("invalid --url '\(url)': expected an http:// or https:// URL")
        }
    }

    /// Opens the databases, then runs the UI until the user quits. Failures before the
    /// terminal is taken over become one line on stderr and the exit status of ``ReaderError``.
    public func run() async throws {
        do {
            try await read()
        } catch {
            FileHandle.standardError.write(Data("fresh-reader: \(TerminalText.sanitized(error.description))\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }

    // MARK: Running

    /// Opens everything that can fail before the terminal is taken over, then runs the UI.
    private func read() async throws(ReaderError) {
        let services: FreshServices
        let items: ItemDatabase
        let collection: CollectionRecord?
        let storedPosts: [Post]
        do {
            services = FreshServices(location: StorageLocation.resolve(directory: databaseDirectory))
            items = try services.openItemDatabase()
            collection = try Self.collection(url: url.flatMap(Self.httpURL), in: items)
            storedPosts = try collection.map { try CollectionPosts.posts(of: $0.id, in: items) } ?? []
        } catch {
            throw .storage(error as? StorageError ?? .failed(ErrorDescription.line(error)))
        }
        for warning in services.warnings {
            FileHandle.standardError.write(Data("fresh-reader: \(TerminalText.sanitized(warning))\n".utf8))
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        TerminalLocale.activate()
        let fetcher = CollectionPosts.make(database: items, services: services, collection: collection)
        let session = ReaderSession(items: items, collectionID: collection?.id, fetcher: fetcher, storedPosts: storedPosts,
                                    refreshAtStart: collection != nil)
        do {
            try await services.finishing { try await session.run() }
        } catch {
            throw error as? ReaderError ?? .terminal(ErrorDescription.line(error))
        }
    }

    /// The collection of `url` (created when new), else the first one stored.
    private static func collection(url: URL?, in items: ItemDatabase) throws -> CollectionRecord? {
        let collections = try items.collections()
        guard let url else { return collections.first }
        let identity = CollectionIdentity.of(url)
        if let match = collections.first(where: { URL(string: $0.url).map(CollectionIdentity.of) == identity }) { return match }
        return try items.createCollection(preferredName: CollectionIdentity.defaultName(for: url), url: url.absoluteString)
    }

    private static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else { return nil }
        return url
    }
}
