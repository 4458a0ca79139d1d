import ArgumentParser
import Foundation
import MirrorStore
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
            that was complete before (its items are kept), or "failed: …" when it never was.

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
        let summaries = try await storage.withMirror(forReading: true) { try await $0.summaries() }
        if json { return try JSONOutput.print(summaries.map(Self.object)) }
        guard !summaries.isEmpty else {
            StandardError.write("fresh: no collections yet: 'fresh sync URL' mirrors one")
            return
        }
        let rows = summaries.map { summary in
            [summary.collection.name, String(summary.itemCount), String(summary.pageCount),
             summary.collection.plan?.style.name ?? "-", Self.lastSync(summary.collection),
             Self.status(summary.collection, itemCount: summary.itemCount), ByteCount.format(summary.bytes), summary.collection.url]
        }
        TextTable.print(header: ["NAME", "ITEMS", "PAGES", "STYLE", "LAST SYNC", "STATUS", "SIZE", "URL"], rows: rows, numericColumns: [1, 2],
                        dropping: [2, 6, 3])
    }

    /// How the last sync ended, on one line: a failure over stored items is "stale (last sync
    /// failed: …)", its reason cut to ``errorWidth`` characters (`--json` has it whole).
    static func status(_ collection: CollectionRecord, itemCount: Int) -> String {
        if let error = collection.lastError {
            let reason = error.count > errorWidth ? String(error.prefix(errorWidth - 1)) + "…" : error
            return itemCount > 0 && collection.lastCompleteAt != nil ? "stale (last refresh failed: \(reason))" : "failed: \(reason)"
        }
        if collection.lastCompleteAt == nil && collection.plan == nil { return "never synced" }
        guard collection.passComplete else { return "unfinished" }
        return collection.lastPassKind == .incremental ? "complete, incremental" : "complete"
    }

    /// The most of an error's text the table shows.
    static let errorWidth = 40

    static func lastSync(_ collection: CollectionRecord) -> String {
        guard let time = collection.lastSyncAt else { return "-" }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: time))
    }

    private static func object(_ summary: CollectionSummary) -> [String: Any] {
        let collection = summary.collection
        var object: [String: Any] = [
            "name": collection.name, "url": collection.url, "items": summary.itemCount, "pages": summary.pageCount,
            "bytes": summary.bytes, "complete": collection.passComplete && collection.lastCompleteAt != nil,
        ]
        object["style"] = collection.plan?.style.name
        object["itemsPath"] = collection.plan.map { $0.items.description }
        object["key"] = collection.plan?.key.description
        object["lastSync"] = collection.lastSyncAt.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) }
        object["lastComplete"] = collection.lastCompleteAt.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) }
        object["lastError"] = collection.lastError
        object["lastPassKind"] = collection.lastPassKind?.rawValue
        object["since"] = collection.since
        return object
    }
}
