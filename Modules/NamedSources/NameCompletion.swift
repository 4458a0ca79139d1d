import ArgumentParser
import Foundation
import MirrorStore
import Storage

/// Shell completion of the names commands take (`fresh sync NAME`, `fresh-reader --collection NAME`,
/// …): the sources, then the collections of the default data directory (or `--db-dir`'s); silent: a
/// file it cannot read just completes nothing from it.
public enum NameCompletion {
    /// Sources and collections.
    public static let names = CompletionKind.custom { words, _, _ in
        let sources = sourceNames()
        return sources + collectionNames(words).filter { !sources.contains($0) }
    }

    /// Sources only.
    public static let sources = CompletionKind.custom { _, _, _ in sourceNames() }

    static func sourceNames() -> [String] {
        (try? SourcesFile.located().load().map(\.name)) ?? []
    }

    /// Read with the mirror's synchronous calls: ArgumentParser's own launch runs only
    /// synchronous completions; the file is closed when the process ends, a moment later.
    static func collectionNames(_ words: [String]) -> [String] {
        var directory: String?
        if let flag = words.firstIndex(of: "--db-dir"), flag + 1 < words.count { directory = words[flag + 1] }
        let path = StorageLocation.resolve(directory: directory).itemDatabasePath
        guard FileManager.default.fileExists(atPath: path), let store = try? SQLiteMirror.openForReading(path: path) else { return [] }
        return (try? store.collections())?.map { (collection: CollectionRecord) in collection.name } ?? []
    }
}
