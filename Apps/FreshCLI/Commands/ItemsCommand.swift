import ArgumentParser
import Foundation
import JSON
import MirrorStore
import NamedSources
import SyncEngine

/// `fresh items NAME`: a collection's items as JSON Lines, a JSON array, CSV, TSV or a table.
struct ItemsCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Print a collection's items: JSON Lines, a JSON array, CSV, TSV or a table.",
        discussion: """
            Items come in the server's order, as the JSON it sent (without insignificant \
            whitespace). The default format is a table on a terminal and JSON Lines (one item \
            per line) in a pipe. A table is for reading: without --limit it shows the first \
            \(tableRows) items, and says so.

            --where keeps the items whose member matches: NAME=VALUE (equal as text: 5 \
            matches the number 5 and the string "5"; true matches the boolean, null a null, \
            an empty VALUE a missing member), NAME!=VALUE, \
            NAME~VALUE (contains, ignoring case). NAME may be a path (user.login). Several \
            --where must all hold.

            --fields picks members, and their order, in every format: JSON Lines and JSON \
            print objects with just those members (named by their paths, null where absent). \
            CSV follows RFC 4180 (a header row, quotes where needed, CRLF line ends); TSV \
            escapes tab, line breaks and backslash as \\t, \\n, \\r and \\\\. Without \
            --fields their columns are every member any exported item has, in the order they \
            first appear. A cell holds a string as its text and any other value as JSON.

            On a terminal nothing an item holds can drive it, in any format: control characters, \
            C1 controls and bidi overrides are escaped (as JSON escapes in JSON, as \\u{…} in text). \
            A pipe or a file gets the exact bytes.

            Examples:
              fresh items posts --limit 3
              fresh items posts --where 'author=민지' --format json
              fresh items users --fields login,name --where 'login~kim'
              fresh items posts --format csv --fields id,title > posts.csv
              fresh items posts | jq -r .title
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case jsonl, json, csv, tsv, table }

    @Argument(help: ArgumentHelp("The collection (see 'fresh collections').", valueName: "name"), completion: NameCompletion.names)
    var name: String

    @Option(help: ArgumentHelp("jsonl, json, csv, tsv or table (default: table on a terminal, else jsonl).", valueName: "format"))
    var format: Format?
    @Flag(help: "The same as --format json.")
    var json = false
    @Option(help: ArgumentHelp("Members to print, comma-separated paths, in that order, in every format (default: whole items; csv and tsv: every member of the items; table: the key and a title).", valueName: "a,b"))
    var fields: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("Keep items whose member matches (repeatable).", valueName: "name=value"),
            transform: { text in
                guard let filter = ItemFilter(parsing: text) else { throw ValidationError("--where \(text): use NAME=VALUE, NAME!=VALUE or NAME~VALUE") }
                return filter
            })
    var filters: [ItemFilter] = []

    // Unconditional: `--limit -1` is a value to refuse with its own message, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Print at most this many items.", valueName: "n"))
    var limit: Int?

    @OptionGroup var storage: StorageOptions

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) disagree") }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let fields { _ = try Self.paths(in: fields) }
    }

    /// The member paths `--fields` lists: separated by commas, spaces around each ignored; an
    /// empty or repeated path is refused.
    static func paths(in fields: String) throws -> [JSONPath] {
        var paths: [JSONPath] = []
        for text in fields.split(separator: ",", omittingEmptySubsequences: false) {
            guard let path = JSONPath(parsing: text.trimmingCharacters(in: .whitespaces)), !path.isRoot else {
                throw ValidationError("--fields \(fields): use member paths separated by commas")
            }
            guard !paths.contains(path) else { throw ValidationError("--fields \(fields): \(path) is named twice") }
            paths.append(path)
        }
        return paths
    }

    func execute() async throws {
        let given = try SourcesFile.located().store(ofSourceNamed: name)
        if try storage.noMirrorYet(given: given) { throw SyncError.unknownCollection(name: name) }
        try await storage.withMirror(forReading: true, given: given) { store in
            guard let collection = try await store.collection(meaning: name) else { throw SyncError.unknownCollection(name: name) }
            let format = json ? .json : format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .jsonl)
            let chosen = try fields.map(Self.paths(in:))
            let output = BufferedOutput(format == .json || format == .jsonl ? .json : .text)
            let projection = chosen.map(ItemProjection.init)
            switch format {
            case .jsonl:
                try await store.forEachItem(in: collection.id, filters: filters, limit: limit) { item in
                    output.write((projection?.json(of: item.json) ?? item.json) + "\n")
                }
            case .json:
                var first = true
                output.write("[")
                try await store.forEachItem(in: collection.id, filters: filters, limit: limit) { item in
                    output.write((first ? "\n" : ",\n") + (projection?.json(of: item.json) ?? item.json))
                    first = false
                }
                output.write(first ? "]\n" : "\n]\n")
            case .csv, .tsv:
                var columns = chosen ?? []
                if chosen == nil {
                    // A first read over the items finds their columns, a second prints them: a
                    // member only later items have still gets its column, and no item is held.
                    var members = OrderedMembers()
                    try await store.forEachItem(in: collection.id, filters: filters, limit: limit) { members.add(of: $0.json) }
                    columns = members.paths
                }
                let table = DelimitedText(format == .csv ? .csv : .tsv)
                let depth = Self.deepest(columns)
                var row: [UInt8] = []
                // No columns (no item to find them in): no header either, as the export is empty.
                if !columns.isEmpty {
                    table.append(columns.map(\.description), to: &row)
                    output.write(utf8: row)
                }
                try await store.forEachItem(in: collection.id, filters: filters, limit: limit) { item in
                    row.removeAll(keepingCapacity: true)
                    table.append(Self.cells(of: item, columns: columns, depth: depth), to: &row)
                    output.write(utf8: row)
                }
            case .table:
                let sample = try await store.firstItemJSON(in: collection.id)
                let columns = chosen ?? Self.defaultColumns(collection, sample: sample)
                let depth = Self.deepest(columns)
                var rows: [[String]] = []
                // A table is for reading: without --limit it shows the first rows, and says so.
                try await store.forEachItem(in: collection.id, filters: filters, limit: limit ?? Self.tableRows + 1) { item in
                    rows.append(Self.cells(of: item, columns: columns, depth: depth))
                }
                let cut = limit == nil && rows.count > Self.tableRows
                if cut { rows.removeLast() }
                TextTable.print(header: columns.map { $0.description.uppercased() }, rows: rows)
                if cut {
                    StandardError.note("fresh: the first \(Self.tableRows) items are shown; --limit N shows more, --format jsonl all of them")
                }
            }
            output.flush()
        }
        if let damage = try storage.recordedDamage(given: given) { throw damage }
    }

    /// The rows a table shows without `--limit`.
    static let tableRows = 1000

    /// The key, then the title and second line a list shows (see ``ItemFields``).
    static func defaultColumns(_ collection: CollectionRecord, sample: String?) -> [JSONPath] {
        let shown = ItemFields.choose(for: sample)
        return [collection.plan?.key ?? JSONPath(["id"])] + shown.title + shown.subtitle
    }

    /// CSV and TSV's columns without `--fields`: every top-level member, in order of appearance.
    struct OrderedMembers {
        private(set) var paths: [JSONPath] = []
        private var seen: Set<String> = []

        mutating func add(of json: String) {
            guard let document = try? JSONDocument(skimming: Data(json.utf8), recordedDepth: 1) else { return }
            for member in document.root.members where seen.insert(member.name).inserted { paths.append(JSONPath([member.name])) }
        }
    }

    /// How deep an item is read for `columns`: the most components of their paths.
    static func deepest(_ columns: [JSONPath]) -> Int { columns.lazy.map(\.components.count).max() ?? 1 }

    /// An item's cells: each member's text (strings as they are, other values as JSON). The
    /// item was checked when it was stored, so its text is skimmed, not checked again, down to
    /// `depth`, the deepest of the columns' paths.
    static func cells(of item: StoredItem, columns: [JSONPath], depth: Int) -> [String] {
        let document = try? JSONDocument(skimming: Data(item.json.utf8), recordedDepth: depth)
        return columns.map { path in
            guard let value = document?.value(at: path) else { return "" }
            return value.string ?? value.rawText
        }
    }
}
