import ArgumentParser
import CommandLaunch
import Foundation
import HTTPCache
import HTTPFields
import MirrorStore
import Storage
import StorageErrors
import SyncEngine
import SyncOrchestration
import TerminalText

/// `fresh cache …`: look into and tidy the HTTP cache database.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and manage the HTTP cache database.",
        discussion: "The cache is disposable: clearing it never loses synced items, it only costs a full download next time.",
        subcommands: [Stats.self, List.self, Show.self, Remove.self, Clear.self, Prune.self]
    )

    struct Stats: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Entries, bytes, capacity, hit / revalidated / miss counts and bytes saved.")
        @Flag(help: "Print a JSON object instead of lines.") var json = false
        @OptionGroup var storage: CacheOptions

        func execute() async throws {
            let statistics = try storage.openCacheDatabase().statistics()
            if json {
                var object: [String: Any] = ["entries": statistics.entries, "bytes": statistics.bytes, "capacity": statistics.capacity,
                                             "bodyBytesReceived": statistics.bytesReceived, "bodyBytesSaved": statistics.bytesSaved]
                for kind in CacheOutcome.Kind.allCases { object[kind.rawValue] = statistics.counts[kind] ?? 0 }
                return try JSONOutput.print(object)
            }
            StandardOutput.line("entries: \(statistics.entries)")
            StandardOutput.line("bytes: \(statistics.bytes) (\(ByteCount.format(statistics.bytes))) of \(ByteCount.format(statistics.capacity))")
            for kind in CacheOutcome.Kind.allCases { StandardOutput.line("\(kind.rawValue): \(statistics.counts[kind] ?? 0)") }
            StandardOutput.line("body bytes received: \(statistics.bytesReceived)")
            StandardOutput.line("body bytes saved: \(statistics.bytesSaved)")
        }
    }

    struct List: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List stored entries, most recently used first.")
        @Flag(help: "Print a JSON array instead of lines.") var json = false
        @OptionGroup var storage: DirectoryOption

        func execute() async throws {
            let entries = try storage.openCacheDatabase().listEntries()
            if json {
                return try JSONOutput.print(entries.map { entry in
                    ["key": RedactedPassword.hidden(in: entry.key), "status": entry.status, "bytes": entry.size,
                     "variant": entry.variantKey.isEmpty ? NSNull() : entry.variantKey as Any,
                     "lastAccess": ISO8601DateFormatter().string(from: entry.lastAccess)] as [String: Any]
                })
            }
            for entry in entries {
                let variant = entry.variantKey.isEmpty ? "" : " [\(entry.variantKey.replacingOccurrences(of: "\n", with: "; "))]"
                StandardOutput.line(TerminalText.sanitized(RedactedPassword.hidden(in: "\(entry.status) \(ByteCount.format(entry.size)) \(entry.key)\(variant)")))
            }
        }
    }

    struct Show: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a stored entry's status, headers, times and freshness.")
        @Argument(help: ArgumentHelp("The URL of the entry.", valueName: "url"), transform: ParsedURL.parse) var target: ParsedURL
        @OptionGroup var storage: DirectoryOption

        func execute() async throws {
            let database = try storage.openCacheDatabase()
            // Keys hold no user or password (`get` sends them as Authorization).
            let url = URLCredentials.removed(from: target.url)
            let variants = try database.variants(forKey: CacheKey.primary(method: .get, url: url))
            guard !variants.isEmpty else { throw NothingStored(url: url) }
            for entry in variants {
                let variant = entry.variantKey.isEmpty ? "" : " [\(entry.variantKey.replacingOccurrences(of: "\n", with: "; "))]"
                StandardOutput.line(TerminalText.sanitized(RedactedPassword.hidden(in: entry.key + variant)) + "  (\(entry.body.count) body bytes)")
                StandardOutput.line("status: \(entry.status.code)")
                StandardOutput.line("requested: \(HTTPDate.format(entry.requestTime)), received: \(HTTPDate.format(entry.responseTime))")
                StandardOutput.line(StoredResponseEvaluation(entry: entry, now: Date()).summary)
                for field in entry.headerFields { StandardOutput.line(TerminalText.sanitized("  \(field.name.rawName): \(field.value)")) }
            }
        }
    }

    struct Remove: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove every stored variant of a URL.")
        @Argument(help: ArgumentHelp("The URL of the entry.", valueName: "url"), transform: ParsedURL.parse) var target: ParsedURL
        @OptionGroup var storage: DirectoryOption

        func execute() async throws {
            let database = try storage.openCacheDatabase()
            let url = URLCredentials.removed(from: target.url)
            let key = CacheKey.primary(method: .get, url: url)
            let count = try database.variants(forKey: key).count
            try database.removeAll(forKey: key)
            StandardOutput.line("removed \(count) entr\(count == 1 ? "y" : "ies") for \(TerminalText.sanitized(url.absoluteString))")
        }
    }

    struct Clear: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry and reset the statistics.")
        @OptionGroup var storage: DirectoryOption

        func execute() async throws {
            let database = try storage.openCacheDatabase()
            do {
                let count = try database.statistics().entries
                try database.clear()
                StandardOutput.line("cleared \(Plural.count(count, "entry", "entries"))")
            } catch let error where StorageError.isDamage(error) {
                try CacheDatabase.deleteFiles(at: database.path)
                StandardOutput.line("deleted the damaged cache database at \(database.path); the next command starts an empty cache")
            }
        }
    }

    struct Prune: FreshSubcommand {
        static let configuration = CommandConfiguration(commandName: "prune", abstract: "Evict least-recently-used entries until the cache fits a size.")
        @Option(name: .customLong("max-size"), help: ArgumentHelp("Size to fit, e.g. 10M.", valueName: "size"),
                transform: { text in
                    guard let bytes = ByteCount.parse(text) else { throw ValidationError("invalid size '\(text)'") }
                    return bytes
                })
        var maximumSize: Int
        @OptionGroup var storage: DirectoryOption

        func execute() async throws {
            let database = try storage.openCacheDatabase()
            let evicted = try database.prune(toFit: maximumSize)
            StandardOutput.line("evicted \(evicted) entries; \(ByteCount.format(try database.statistics().bytes)) remain")
        }
    }
}

/// `fresh cache show` of a URL with no stored entry (exit 7).
struct NothingStored: Error, CustomStringConvertible {
    var url: URL
    var description: String { "nothing is stored for \(RedactedPassword.hidden(in: url.absoluteString))" }
}
