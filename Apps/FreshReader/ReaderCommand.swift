import ArgumentParser
import Composition
import Foundation
import HTTPCache
import JSON
import MirrorStore
import NamedSources
import Storage
import StorageErrors
import StoreAddress
import SyncEngine
import SyncOrchestration
import TerminalText

/// `fresh-reader`: browse the synced posts in the terminal, offline first.
public struct ReaderCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fresh-reader",
        abstract: "Browse synced collections in the terminal, offline first, with infinite scroll.",
        discussion: """
            fresh-reader shows what `fresh sync` stored in the mirror (data.sqlite, or the \
            PostgreSQL database that --store, FRESH_STORE or the source's `store` names) at once, \
            without waiting for the network, reading only the rows on screen (as fast at \
            100,000 items as at 100). With several collections stored it opens on the \
            collection list; Enter opens one.

            A complete collection is refreshed in the background when it opens and on `r`: the \
            pages on screen first, then the rest, each a conditional request (an unchanged page \
            costs a 304 and writes nothing). A collection that is not complete (a sync that \
            stopped, or a new --url) loads its next page as you come within --prefetch rows of \
            its end (infinite scroll). What another process writes (a concurrent `fresh sync`) \
            appears within a second.

            \(Keymap.helpLines().joined(separator: "\n"))
            Status line: the collection, its item count, then "refreshing…", "updated HH:MM:SS: \
            3 new, 1 updated, 2 removed · 48 × 304", "offline, showing stored items (reason)" or \
            "error: reason"; on the right the position, e.g. 123/4,567. `e` shows the full reason.

            Search (/) uses the mirror's full-text index (SQLite's or PostgreSQL's) over every string of the \
            items (every word must appear; the last one may be a prefix). A collection's first search builds \
            that index in the background and meanwhile reads the items from the selection ("searching…"), \
            matching words as text; the screen stays usable.

            Text from the server is shown with control characters and bidi overrides made \
            visible, so an item cannot send escape sequences to the terminal or reorder the line. \
            Columns are measured in display cells, so Hangul and emoji line up.

            Files: data.sqlite (synced items) and cache.sqlite (HTTP cache) in --db-dir, else \
            $FRESH_HOME, else $XDG_DATA_HOME/fresh and $XDG_CACHE_HOME/fresh. A data directory \
            that cannot be written is opened read-only: browsing and search work, fetching does not. \
            With a PostgreSQL store the items are in that database, and the cache stays here.

            Exit status:
              0   quit with q or Esc, Ctrl-C, SIGTERM or SIGHUP (the terminal is restored)
              1   unexpected failure
              2   standard input/output is not a terminal, or the terminal cannot be used
                  (or the reader is not in its foreground, so no key could be read)
              6   a database could not be opened or read (damaged, not a database,
                  a PostgreSQL server that cannot be reached, a missing role or database)
              64  invalid arguments (an unknown --collection, say)

            Examples:
              fresh sync http://127.0.0.1:8080/posts && fresh-reader
              fresh-reader --collection posts --title author
              fresh-reader --db-dir /tmp/fresh --url 'http://127.0.0.1:8080/posts?limit=20'
            """,
        version: "fresh-reader \(FreshServices.version)"
    )

    @Option(name: .customLong("db-dir"), help: ArgumentHelp(
        "Directory holding data.sqlite and cache.sqlite (default: FRESH_HOME, else the XDG directories).",
        valueName: "dir"))
    var databaseDirectory: String?
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The mirror: 'sqlite' (data.sqlite in the data directory, the default) or a PostgreSQL URI, postgresql://[user@]host[:port]/database (default: FRESH_STORE).",
        valueName: "store"))
    var store: String?

    @Option(help: ArgumentHelp("Open the collection of this listing, e.g. http://127.0.0.1:8080/posts, and refresh it (made and fetched when it was never synced); without it the collection list opens, or the one collection there is.", valueName: "url"))
    var url: String?
    @Option(help: ArgumentHelp("Open this collection instead of the collection list: a source's name (its collection is fetched when new) or one in `fresh collections`, as `fresh sync NAME` reads it.", valueName: "name"),
            completion: NameCompletion.names)
    var collection: String?

    @Option(help: ArgumentHelp("Member that titles the rows, e.g. login or user.name (default: the first present of "
        + "\(ItemFields.titleNames.prefix(6).joined(separator: ", ")), …).", valueName: "field"))
    var title: String?
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Load the next page when the selection comes within this many rows of the end.", valueName: "n"))
    var prefetch = 3

    /// Required by ArgumentParser; the options are filled in by parsing.
    public init() {}

    /// Rejects a `--url` that is not http(s) before anything is opened.
    public func validate() throws {
        // An unset shell variable (`--db-dir "$DIR"`) would otherwise mean the default location.
        if databaseDirectory == "" { throw ValidationError("--db-dir is empty: give a directory") }
        if store == "" { throw ValidationError("--store is empty: give 'sqlite' or a postgresql:// URI") }
        // Only the flag: FRESH_STORE is read once, when the mirror opens.
        if let store {
            do { _ = try MirrorChoice.resolve(store) } catch let error as AddressError { throw ValidationError(error.description) }
        }
        if let url, Self.httpURL(url) == nil { throw ValidationError("invalid --url '\(url)': expected an http:// or https:// URL") }
        if let title, JSONPath(parsing: title).map({ !$0.isRoot }) != true {
            throw ValidationError("invalid --title '\(title)': expected a member name or a dotted path such as user.login")
        }
        if prefetch < 0 { throw ValidationError("invalid --prefetch \(prefetch): expected 0 or more rows") }
        if url != nil, collection != nil { throw ValidationError("--url and --collection name the collection twice: give one") }
    }

    /// Opens the databases and runs the UI; a failure is one line on stderr and ``ReaderError``'s exit status.
    public func run() async throws {
        do {
            try await read()
        } catch {
            let failure: ReaderError = switch error {
            case let error as ReaderError: error
            // A FRESH_STORE that is not a store, a sources file that cannot be read: as `fresh` says them.
            case is AddressError, is SourceError, is UnknownSyncTarget, is ValidationError, SyncError.nameTaken:
                .usage(ErrorDescription.line(error))
            default: .storage(error as? StorageError ?? .failed(ErrorDescription.line(error)))
            }
            Self.say(failure.description)
            throw ExitCode(failure.exitCode)
        }
    }

    // MARK: Running

    /// Opens everything that can fail before the terminal is taken over, then runs the UI.
    private func read() async throws {
        let location = StorageLocation.resolve(directory: databaseDirectory)
        // A source opened by name lives in its own store, unless --store says otherwise.
        let sourceStore = try collection.flatMap { try SourcesFile.located().store(ofSourceNamed: $0) }
        let choice = try MirrorChoice.resolve(store ?? sourceStore)
        let readOnly = choice == .sqlite && Self.isReadOnly(location.itemDatabasePath) && url == nil
        // A mistyped --db-dir names nothing to read: it is said, where opening would make the
        // directory and both databases (`fresh collections` makes nothing either).
        if let databaseDirectory, choice == .sqlite, url == nil, collection == nil,
           !FileManager.default.fileExists(atPath: databaseDirectory) {
            throw ReaderError.usage("nothing is stored in \(databaseDirectory): no such directory "
                + "(fresh sync URL --db-dir \(databaseDirectory) stores a collection there, fresh-reader --url URL reads one as it goes)")
        }
        let services = FreshServices(location: location)
        let store: any MirrorStore = choice == .sqlite ? try SQLiteMirror(path: location.itemDatabasePath, readOnly: readOnly)
            : try await choice.open(location: location)
        let sources = collection == nil ? [] : try SourcesFile.located().load()
        let collectionID = try await Self.collection(url: url.flatMap(Self.httpURL), name: collection, sources: sources, in: store)?.id
        if !readOnly { services.warnings.forEach(Self.say) }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw ReaderError.notATerminal }
        // Outside the terminal's foreground process group (started with `&`, or by `timeout`
        // without --foreground), every read of a key fails: the reader drew its first frame,
        // then ended at the first key, silently, with status 0.
        guard tcgetpgrp(STDIN_FILENO) == getpgrp() else { throw ReaderError.notInTheForeground }
        TerminalLocale.activate()
        var options = ReaderState.Options()
        options.canFetch = !readOnly
        options.prefetchDistance = prefetch
        let work = BackgroundWork()
        let library = StoredLibrary(store: store, title: title.flatMap(JSONPath.init(parsing:)), work: work)
        let session = ReaderSession(services: services, store: store, library: library, collectionID: collectionID,
                                    options: options, work: work)
        let ran: Result<Void, any Error>
        do { ran = .success(try await services.finishing { try await session.run() }) } catch { ran = .failure(error) }
        await store.close()
        try ran.get()
    }

    /// Writes `line` on stderr, after the program's name, its control characters escaped.
    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("fresh-reader: \(TerminalText.sanitized(line))\n".utf8))
    }

    /// Whether the item database exists and it, or its directory, cannot be written.
    private static func isReadOnly(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        return access(path, W_OK) != 0 || access(PathComponents.parent(of: path), W_OK) != 0
    }

    /// The collection `name` means (as `fresh sync NAME` reads it: a source, whose collection
    /// is created when new, or a collection synced before), else the one of `url` (created when
    /// new), else none (the reader chooses: the only one, or the collection list).
    static func collection(url: URL?, name: String?, sources: [Source], in store: any MirrorReading & CollectionEditing) async throws -> CollectionRecord? {
        if let name {
            switch try await SyncTarget.resolve(name, sources: sources, store: store) {
            case .collection(let found): return found
            case .source(let source):
                // As `fresh sync NAME` finds or makes it: its URL's identity, without credentials.
                guard let url = WrittenURL.http(source.url) else { throw ReaderError.usage("source '\(source.name)' has no http or https URL: \(source.url)") }
                return try await CollectionResolver.resolve(url: url, name: source.name, in: store).0
            case .url: throw ReaderError.usage("--collection \(name): give a collection's name (an address goes with --url)")
            }
        }
        guard let url else { return nil }
        let identity = CollectionIdentity.of(url)
        if let match = try await store.collections().first(where: { URL(string: $0.url).map(CollectionIdentity.of) == identity }) { return match }
        return try await store.createCollection(preferredName: CollectionIdentity.defaultName(for: url),
                                                url: URLCredentials.removed(from: url).absoluteString, now: Date())
    }

    /// `--url` read as `fresh sync URL` reads it (``ParsedURL``: http without a scheme, a lone `%`
    /// literal), so both name the same collection; `nil` when it is no http(s) URL.
    private static func httpURL(_ text: String) -> URL? { (try? ParsedURL.parse(text))?.url }
}
