import ArgumentParser
import Foundation
import MirrorStore
import StorageErrors
import SyncEngine

/// `fresh collections`: what the item database mirrors.
struct CollectionsCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "collections",
        abstract: "List the mirrored collections: name, items, pages, style, last sync, size, URL.",
        discussion: """
            STATUS says how the last sync ended: "complete" (a whole pass), "complete, \
            incremental" (a --since run, which removed nothing), "unfinished" (the next sync \
            resumes it), "stale (last refresh failed: …)" when an error stopped a collection \
            that was complete before (its items are kept), "failed: …" when it never was, or \
            "recovered, no pages" after 'fresh check --recover' saved its items (the next sync \
            reads every page again).

            On a terminal narrower than the table, PAGES, SIZE and STYLE give way first.

            Example:
              fresh collections --json | jq '.[].name'
            """,
        aliases: ["ls"]
    )

    @Flag(help: "Print a JSON array instead of the table.")
    var json = false

    @OptionGroup var storage: StorageOptions

    func execute() async throws {
        let (listed, damage) = try storage.noMirrorYet() ? ([], nil)
            : try await storage.withMirror(forReading: true) { store in try await Self.listing(of: store) }
        if json {
            try JSONOutput.print(listed.map(Self.object))
        } else if listed.isEmpty {
            StandardError.write("fresh: no collections yet: 'fresh sync URL' mirrors one")
        } else {
            let rows = listed.map { collection, figures in
                // A figure the file's damage kept from being counted is `?`.
                let figure = { (shown: (CollectionSummary) -> String) in figures.map(shown) ?? "?" }
                return [collection.name, figure { String($0.itemCount) }, figure { String($0.pageCount) },
                        collection.plan?.style.name ?? "-", Self.lastSync(collection),
                        Self.status(collection, itemCount: figures?.itemCount, pageCount: figures?.pageCount),
                        figure { ByteCount.format($0.bytes) }, collection.url]
            }
            TextTable.print(header: ["NAME", "ITEMS", "PAGES", "STYLE", "LAST SYNC", "STATUS", "SIZE", "URL"], rows: rows,
                            numericColumns: [1, 2], dropping: [2, 6, 3])
        }
        if let damage = try damage ?? storage.recordedDamage() { throw damage }
    }

    /// A collection, and its figures unless the file's damage kept them from being counted.
    typealias Listed = (collection: CollectionRecord, figures: CollectionSummary?)

    /// Every collection with its figures; in a damaged file whose collections can still be read but
    /// not all their items, the collections without figures, and the damage to report once they
    /// are shown (a reading command reads a damaged file as far as it can).
    static func listing(of store: any MirrorStore) async throws -> ([Listed], StorageError?) {
        do {
            return (try await store.summaries().map { ($0.collection, $0) }, nil)
        } catch let damage as StorageError {
            guard case .corrupted = damage, let collections = try? await store.collections() else { throw damage }
            return (collections.map { ($0, nil) }, damage)
        }
    }

    /// How the last sync ended, on one line: a failure over stored items is "stale (last sync
    /// failed: …)", its reason cut to ``errorWidth`` characters (`--json` has it whole); a mirror
    /// that may lack items says so, with what the next sync does about it.
    static func status(_ collection: CollectionRecord, itemCount: Int?, pageCount: Int? = nil) -> String {
        func cut(_ text: String) -> String { text.count > errorWidth ? String(text.prefix(errorWidth - 1)) + "…" : text }
        if let error = collection.lastError {
            let reason = cut(error)
            return itemCount != 0 && collection.lastCompleteAt != nil ? "stale (last refresh failed: \(reason))" : "failed: \(reason)"
        }
        if collection.lastCompleteAt == nil && collection.plan == nil { return "never synced" }
        guard collection.passComplete else { return "unfinished" }
        // Items without pages: saved by `fresh check --recover` (or brought from an old file).
        if pageCount == 0, let itemCount, itemCount > 0 { return "recovered, no pages (the next sync reads them all)" }
        // An incremental run that did not end whole (stopped, or its stated total fell) keeps its
        // start until one does; a whole pass since keeps it too (its pages may have been fresh hits).
        if let start = collection.incrementalFrom { return "incremental run unfinished (the next starts from \(cut(start)))" }
        switch collection.lastPassKind {
        case .incremental: return "complete, incremental"
        case .partial: return "partial (items may have slid past the pages read; the next sync reads every page)"
        case .full, nil: return "complete"
        }
    }

    /// The most of an error's text (or of a stored value) the table shows.
    static let errorWidth = 40

    static func lastSync(_ collection: CollectionRecord) -> String {
        guard let time = collection.lastSyncAt else { return "-" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: time))
    }

    private static func object(_ listed: Listed) -> [String: Any] {
        let (collection, figures) = listed
        var object: [String: Any] = [
            "name": collection.name, "url": collection.url, "items": figures?.itemCount ?? NSNull(), "pages": figures?.pageCount ?? NSNull(),
            "bytes": figures?.bytes ?? NSNull(), "complete": collection.passComplete && collection.lastCompleteAt != nil,
        ]
        object["style"] = collection.plan?.style.name
        object["itemsPath"] = collection.plan.map { $0.items.description }
        object["key"] = collection.plan?.key.description
        object["lastSync"] = collection.lastSyncAt.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) }
        object["lastComplete"] = collection.lastCompleteAt.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) }
        object["lastError"] = collection.lastError
        object["lastPassKind"] = collection.lastPassKind?.rawValue
        object["incrementalFrom"] = collection.incrementalFrom
        object["since"] = collection.since
        return object
    }
}
