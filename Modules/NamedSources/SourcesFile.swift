import Foundation
import TOMLKit

/// The sources file, `sources.toml`: in `$FRESH_CONFIG_DIR` when that is set, else in
/// `$XDG_CONFIG_HOME/fresh/` (`~/.config/fresh/`). TOML, meant to be edited by hand too:
///
/// ```toml
/// [sources.repos]
/// url = "https://api.github.com/user/repos"
/// limit = 50
/// since = "since=updated_at"                    # optional: incremental syncs
/// parallel = 1                                  # optional: requests at once to its origin
/// cacert = "/etc/ssl/private-ca.pem"            # optional: a private CA (insecure = true: none checked)
/// store = "postgresql://kim@db.internal/team"   # optional: the mirror it lives in
///
/// [sources.repos.headers]
/// Authorization = "Bearer ${GITHUB_TOKEN}"
/// ```
///
/// The file is created with mode 0600 in a directory of mode 0700. `fresh source add` and
/// `rm` write it anew (comments other than the file's heading are not kept).
public struct SourcesFile: Sendable {
    public let path: String

    /// The members a source may have, for the message about one it does not know.
    static let sourceKeys = ["url", "headers", "paginate", "items", "key", "limit", "store", "since", "parallel", "cacert", "insecure"]

    public init(path: String) { self.path = path }

    /// The file where the environment says it is.
    public static func located(environment: [String: String] = ProcessInfo.processInfo.environment) -> SourcesFile {
        let directory = if let dir = environment["FRESH_CONFIG_DIR"], !dir.isEmpty {
            dir
        } else if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            config + "/fresh"
        } else {
            (environment["HOME"] ?? NSHomeDirectory()) + "/.config/fresh"
        }
        return SourcesFile(path: directory + "/sources.toml")
    }

    // MARK: Reading

    /// Every source in the file, by name; none when the file does not exist.
    public func load() throws(SourceError) -> [Source] {
        guard let table = try document() else { return [] }
        for key in table.keys where key != "sources" {
            throw .badFile(path: path, reason: "unknown table '\(key)' (the file holds [sources.NAME] tables)")
        }
        guard let sources = table["sources"] else { return [] }
        guard let sources = sources.table else { throw .badFile(path: path, reason: "'sources' must be a table of [sources.NAME] tables") }
        return try sources.keys.sorted().map { name throws(SourceError) in try source(name, sources[name]) }
    }

    /// The file as TOML, `nil` when there is none; only its syntax is checked.
    private func document() throws(SourceError) -> TOMLTable? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw .cannotAccess(path: path, reason: "it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotAccess(path: path, reason: String(cString: strerror(access(path, R_OK) == 0 ? EIO : errno)))
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .cannotAccess(path: path, reason: "not UTF-8 text") }
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .badFile(path: path, reason: "line \(error.source.begin.line): \(error.description)")
        } catch {
            throw .badFile(path: path, reason: "\(error)")
        }
    }

    /// The store of the source called `name`, if any: where a command given the name looks for it.
    public func store(ofSourceNamed name: String) throws(SourceError) -> String? {
        try load().first { $0.name == name }?.store
    }

    /// The source called `name`.
    public func source(named name: String) throws(SourceError) -> Source {
        let all = try load()
        guard let source = all.first(where: { $0.name == name }) else { throw .unknown(name, known: all.map(\.name)) }
        return source
    }

    private func source(_ name: String, _ value: TOMLValueConvertible?) throws(SourceError) -> Source {
        let place = "source '\(name)'"
        guard Source.isValidName(name) else { throw .badFile(path: path, reason: "'\(name)' cannot name a source (letters, digits, '-', '_', '.')") }
        guard let table = value?.table else { throw .badFile(path: path, reason: "\(place) must be a table") }
        for key in table.keys where !Self.sourceKeys.contains(key) {
            throw .badFile(path: path, reason: "\(place): unknown key '\(key)' (known: \(Self.sourceKeys.joined(separator: ", ")))")
        }
        guard let url = table["url"]?.string, !url.isEmpty else { throw .badFile(path: path, reason: "\(place) needs url = \"https://…\"") }
        var source = Source(name: name, url: url)
        source.paginate = try text(table, "paginate", place)
        source.items = try text(table, "items", place)
        source.key = try text(table, "key", place)
        source.store = try text(table, "store", place)
        source.since = try text(table, "since", place)
        source.cacert = try text(table, "cacert", place)
        source.limit = try count(table, "limit", place)
        source.parallel = try count(table, "parallel", place)
        if let insecure = table["insecure"] {
            guard let flag = insecure.bool else { throw .badFile(path: path, reason: "\(place): insecure must be true or false") }
            source.insecure = flag
        }
        if let headers = table["headers"] {
            guard let headers = headers.table else { throw .badFile(path: path, reason: "\(place): headers must be a table of Name = \"value\"") }
            for header in headers.keys {
                guard let value = headers[header]?.string else { throw .badFile(path: path, reason: "\(place): header \(header) must be a string") }
                let template = HeaderTemplate(value)
                do {
                    _ = try template.parts()
                } catch {
                    throw .badFile(path: path, reason: "\(place): \(header): \(error)")
                }
                source.headers.append((header, template))
            }
        }
        return source
    }

    /// A whole number of at least 1 (`limit`, `parallel`).
    private func count(_ table: TOMLTable, _ key: String, _ place: String) throws(SourceError) -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.int, number >= 1 else { throw .badFile(path: path, reason: "\(place): \(key) must be a whole number of at least 1") }
        return number
    }

    private func text(_ table: TOMLTable, _ key: String, _ place: String) throws(SourceError) -> String? {
        guard let value = table[key] else { return nil }
        guard let text = value.string else { throw .badFile(path: path, reason: "\(place): \(key) must be a string") }
        return text
    }

    // MARK: Writing

    /// Adds `source`; one of that name must not exist.
    public func add(_ source: Source) throws(SourceError) {
        var all = try load()
        guard !all.contains(where: { $0.name == source.name }) else { throw .exists(source.name) }
        all.append(source)
        try save(all)
    }

    /// Removes the source called `name`, even when an entry does not validate (an unknown key, no url).
    public func remove(named name: String) throws(SourceError) {
        let sources = try document()?["sources"]?.table
        guard let sources, sources.keys.contains(name) else { throw .unknown(name, known: sources?.keys.sorted() ?? []) }
        let kept = TOMLTable()
        for key in sources.keys where key != name { kept[key] = sources[key] }
        let root = TOMLTable()
        root["sources"] = kept
        try write(root)
    }

    static let heading = """
        # Sources of `fresh sync NAME` (see 'fresh source --help'). Header values may use ${VAR}, read
        # from the environment when a request is made, and $(command), such as $(pass show api/token).

        """

    /// Writes `sources` as the whole file.
    private func save(_ sources: [Source]) throws(SourceError) {
        let root = TOMLTable()
        let table = TOMLTable()
        for source in sources {
            let entry = TOMLTable()
            entry["url"] = source.url
            if let paginate = source.paginate { entry["paginate"] = paginate }
            if let items = source.items { entry["items"] = items }
            if let key = source.key { entry["key"] = key }
            if let limit = source.limit { entry["limit"] = limit }
            if let store = source.store { entry["store"] = store }
            if let since = source.since { entry["since"] = since }
            if let parallel = source.parallel { entry["parallel"] = parallel }
            if let cacert = source.cacert { entry["cacert"] = cacert }
            if source.insecure { entry["insecure"] = true }
            if !source.headers.isEmpty {
                let headers = TOMLTable()
                for (name, value) in source.headers { headers[name] = value.text }
                entry["headers"] = headers
            }
            table[source.name] = entry
        }
        root["sources"] = table
        try write(root)
    }

    /// Writes `root` in place of the file, with the heading: a new file beside it, then renamed over it.
    private func write(_ root: TOMLTable) throws(SourceError) {
        let directory = (path as NSString).deletingLastPathComponent
        let text = Self.heading + root.convert(to: .toml) + "\n"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = path + ".new"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            throw .cannotAccess(path: path, reason: (error as NSError).localizedFailureReason ?? "\(error)")
        }
    }
}
