import ArgumentParser
import Composition
import Foundation
import MirrorStore
import NamedSources
import Pagination
import StoreAddress
import SyncEngine
import SyncOrchestration

/// `fresh source`: named sources, so a sync is `fresh sync NAME` with its URL, headers and
/// options remembered (see ``SourcesFile``).
struct SourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Name an API once, with its headers and options; then 'fresh sync NAME'.",
        discussion: """
            Sources live in sources.toml in $FRESH_CONFIG_DIR, else $XDG_CONFIG_HOME/fresh \
            (~/.config/fresh), mode 0600; the file may be edited by hand. A header value may \
            hold ${VAR}, read from the environment when a request is made, and $(command), \
            the output of a command such as a password manager's; neither is ever written \
            expanded into a file, the cache, -v output or a message. A source's collection is \
            named after it: 'fresh items NAME', 'fresh-reader --collection NAME'.

            A URL a collection already mirrors under another name: the source takes that \
            collection over (renamed, with its items).

            Examples:
              fresh source add repos https://api.github.com/user/repos \\
                  -H 'Authorization: Bearer ${GITHUB_TOKEN}' --parallel 1
              fresh source add issues https://api.github.com/repos/o/r/issues \\
                  --since since=updated_at
              fresh sync repos
              fresh source show repos
            """,
        subcommands: [SourceAddCommand.self, SourceListCommand.self, SourceShowCommand.self, SourceRemoveCommand.self]
    )
}

/// `fresh source add NAME URL`.
struct SourceAddCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a source: a name for a URL with its headers and sync options.",
        discussion: "With --store, the source lives in that mirror: 'fresh sync NAME' and 'fresh-reader --collection NAME' use it.")

    @Argument(help: ArgumentHelp("The source's name (letters, digits, '-', '_', '.'); its collection's name too.", valueName: "name"))
    var name: String
    @Argument(help: ArgumentHelp("URL of the collection's first page.", valueName: "url"), transform: ParsedURL.parse)
    var target: ParsedURL

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("Header 'Name: value' (repeatable); ${VAR} and $(command) are kept as written.", valueName: "header"))
    var headers: [String] = []
    @Option(help: ArgumentHelp("Pagination style with its settings (see 'fresh sync --help').", valueName: "style[:name=value,…]"))
    var paginate: String?
    @Option(help: ArgumentHelp("Where the items are in a page.", valueName: "path"))
    var items: String?
    @Option(help: ArgumentHelp("Member that keys an item.", valueName: "path"))
    var key: String?
    @Option(help: ArgumentHelp("Page size to ask for.", valueName: "n"))
    var limit: Int?
    @Option(help: ArgumentHelp("Incremental syncs: the largest stored MEMBER sent as PARAM (see 'fresh sync --help').", valueName: "param=member"))
    var since: String?
    @Option(help: ArgumentHelp("Requests in flight at once to its origin.", valueName: "n"))
    var parallel: Int?
    @Option(help: ArgumentHelp("A PEM file of the certificates its server is trusted by (a private CA).", valueName: "file"))
    var cacert: String?
    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not check its server's certificate (each sync warns).")
    var insecure = false

    func validate() throws {
        guard Source.isValidName(name) else { throw ValidationError("'\(name)' cannot name a source: use letters, digits, '-', '_' and '.'") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let parallel, !(1...64).contains(parallel) { throw ValidationError("--parallel must be 1…64") }
        if let since, SinceSpec(parsing: since) == nil { throw ValidationError("--since \(since): use PARAM=MEMBER, such as since=updated_at") }
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) { throw ValidationError("--cacert \(cacert): no readable file there") }
        if let paginate {
            do { _ = try PaginateSpec(parsing: paginate) } catch { throw ValidationError("--paginate \(paginate): \(error)") }
        }
        // Parsing checks each value's ${VAR} and $(command) too.
        for header in headers { _ = try HeaderArgument.parse(header) }
    }

    @OptionGroup var storage: StorageOptions

    func execute() async throws {
        let adopted = try await storage.withMirror { store in try await adoptCollection(in: store) }
        let file = SourcesFile.located()
        var source = Source(name: name, url: target.url.absoluteString, paginate: paginate, items: items, key: key, limit: limit)
        source.store = storage.store
        source.since = since
        source.parallel = parallel
        source.cacert = cacert.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        source.insecure = insecure
        for header in headers {
            let (fieldName, value) = try HeaderArgument.parse(header)
            source.headers.append((fieldName.rawName, HeaderTemplate(value)))
        }
        try file.add(source)
        if case .postgresql(let address)? = try? MirrorChoice.resolve(source.store, environment: [:]), address.passwordInText {
            StandardError.note("fresh: warning: the --store password is stored as it is in \(file.path); PGPASSWORD or ~/.pgpass keeps it out of the file")
        }
        for (header, value) in source.headers where value.isLiteralSecret(header: header) {
            StandardError.note("fresh: warning: \(header) is stored as it is in \(file.path); write its secret as ${VAR} or $(command) to keep it out of the file")
        }
        StandardOutput.line("added source '\(name)': 'fresh sync \(name)' mirrors it"
            + (adopted.map { " (it takes over the collection '\($0.name)' with its \(Plural.count($0.items, "item")))" } ?? ""))
    }

    /// A collection of another URL with the source's name is refused; one that mirrors its URL
    /// under another name is renamed (with its items), so `--all` never syncs one URL twice,
    /// unless another source syncs it (it stays that source's).
    /// Returns the collection adopted, if one was.
    private func adoptCollection(in store: any MirrorReading & CollectionEditing) async throws -> (name: String, items: Int)? {
        let identity = CollectionIdentity.of(target.url)
        if let taken = try await store.collection(named: name) {
            guard let url = URL(string: taken.url), CollectionIdentity.of(url) == identity else {
                throw SourceError.badSource(name, reason: "a collection of that name already mirrors \(taken.url): name the source otherwise")
            }
            return nil
        }
        // A collection another source syncs stays that source's: its next sync would find none.
        let sourceNames = Set(try SourcesFile.located().load().map(\.name))
        let mirroring = try await store.collections().filter {
            !sourceNames.contains($0.name) && URL(string: $0.url).map(CollectionIdentity.of) == identity
        }
        guard mirroring.count == 1, let collection = mirroring.first else { return nil }
        let items = try await store.itemCount(in: collection.id)
        try await store.renameCollection(collection.id, to: name)
        return (collection.name, items)
    }
}

/// `fresh source ls`.
struct SourceListCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the sources.", aliases: ["list"])

    @Flag(help: "Print a JSON array instead of the table.")
    var json = false

    func execute() async throws {
        let sources = try SourcesFile.located().load()
        if json { return try JSONOutput.print(sources.map(SourceShowCommand.object)) }
        guard !sources.isEmpty else {
            StandardError.write("fresh: no sources yet: 'fresh source add NAME URL' adds one")
            return
        }
        TextTable.print(header: ["NAME", "URL", "HEADERS"], rows: sources.map { source in
            [source.name, source.url, source.headers.isEmpty ? "-" : source.headers.map(\.name).joined(separator: ", ")]
        })
    }
}

/// `fresh source show NAME`.
struct SourceShowCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a source: its URL, options, and where each header's value comes from.")

    @Argument(help: ArgumentHelp("The source's name.", valueName: "name"), completion: NameCompletion.sources)
    var name: String
    @Flag(help: "Print a JSON object.")
    var json = false

    func execute() async throws {
        let file = SourcesFile.located()
        let source = try file.source(named: name)
        if json { return try JSONOutput.print(Self.object(source)) }
        StandardOutput.line("source: \(source.name)")
        StandardOutput.line("url: \(source.url)")
        for (label, value) in [("paginate", source.paginate), ("items", source.items), ("key", source.key), ("limit", source.limit.map(String.init)),
                               ("since", source.since), ("parallel", source.parallel.map(String.init)), ("cacert", source.cacert),
                               ("insecure", source.insecure ? "true" : nil), ("store", source.store.map { PostgresAddress.redacting($0) })] {
            if let value { StandardOutput.line("\(label): \(value)") }
        }
        for (header, value) in source.headers {
            StandardOutput.line("header \(header): \(value.shown(header: header))  (\(Self.origin(of: value, header: header)))")
        }
        StandardOutput.line("file: \(file.path)")
        for (header, value) in source.headers where value.isLiteralSecret(header: header) {
            StandardError.note("fresh: warning: \(header) holds a secret stored in the file; write it as ${VAR} or $(command)")
        }
    }

    static func origin(of value: HeaderTemplate, header: String) -> String {
        switch (try? value.origin()) ?? .file {
        case .environment(let variables):
            "from the environment: " + variables.map { "\($0.name) (\($0.isSet ? "set" : "not set"))" }.joined(separator: ", ")
        case .command(let commands): "from the command" + (commands.count > 1 ? "s " : " ") + commands.map { "'\($0)'" }.joined(separator: ", ")
        case .file: value.isLiteralSecret(header: header) ? "stored in the file: a secret, better as ${VAR}" : "stored in the file"
        }
    }

    static func object(_ source: Source) -> [String: Any] {
        var object: [String: Any] = ["name": source.name, "url": source.url]
        object["paginate"] = source.paginate
        object["items"] = source.items
        object["key"] = source.key
        object["limit"] = source.limit
        object["since"] = source.since
        object["parallel"] = source.parallel
        object["cacert"] = source.cacert
        object["insecure"] = source.insecure
        object["store"] = source.store.map { PostgresAddress.redacting($0) }
        object["headers"] = source.headers.map { header, value in
            ["name": header, "value": value.shown(header: header), "origin": origin(of: value, header: header)]
        }
        return object
    }
}

/// `fresh source rm NAME`.
struct SourceRemoveCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a source (its collection stays).", aliases: ["remove"])

    @Argument(help: ArgumentHelp("The source's name.", valueName: "name"), completion: NameCompletion.sources)
    var name: String

    @OptionGroup var storage: StorageOptions

    func execute() async throws {
        // The mirror first: a PostgreSQL one hands the whole line to fresh-postgresql, which must
        // still find the source.
        let store = try SourcesFile.located().store(ofSourceNamed: name)
        try storage.handOffIfElsewhere([store])
        let collection = try storage.noMirrorYet(given: store) ? nil
            : try? await storage.withMirror(forReading: true, given: store) { try await $0.collection(named: name) }
        try SourcesFile.located().remove(named: name)
        StandardOutput.line("removed source '\(name)'" + (collection != nil ? " (its collection stays: 'fresh rm \(name)' removes it)" : ""))
    }
}
