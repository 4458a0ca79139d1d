import ArgumentParser
import Composition
import NamedSources
import Foundation
import SyncEngine

/// `fresh rm NAME`: forget a mirrored collection.
struct RemoveCommand: FreshSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a mirrored collection with all its items.",
        discussion: "Waits for a sync of the collection that is running. Its pages' validators leave the HTTP cache too (unless another collection syncs the same page URLs), so syncing the URL again downloads every page once.",
        aliases: ["remove"]
    )

    @Argument(help: ArgumentHelp("The collection (see 'fresh collections').", valueName: "name"), completion: NameCompletion.names)
    var name: String

    @OptionGroup var storage: StorageOptions

    func execute() async throws {
        let (collection, pages, count) = try await storage.withMirror(given: try SourcesFile.located().store(ofSourceNamed: name)) { store in
            guard let collection = try await store.collection(meaning: name), let url = URL(string: collection.url) else {
                throw SyncError.unknownCollection(name: name)
            }
            return try await store.withLock(collection: CollectionIdentity.of(url), onWait: { holder in
                StandardError.write("fresh: a sync of '\(collection.name)' is running\(holder.map { " (\($0))" } ?? ""); waiting for it")
            }) {
                (collection, try await store.pageURLs(onlyIn: collection.id), try await store.deleteCollection(collection.id))
            }
        }
        let services = FreshServices(location: storage.location)
        services.warnings.forEach { StandardError.note("fresh: warning: \($0)") }
        services.forgetPages(pages.compactMap(URL.init(string:)))
        StandardOutput.line("removed '\(collection.name)' (\(Plural.count(count, "item")))")
    }
}
