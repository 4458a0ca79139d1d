import Foundation
import HTTPCache
import MirrorStore

/// Finds the collection a `fresh sync URL [--name NAME]` means, or creates it.
public enum CollectionResolver {
    /// The collection of `url`: the one called `name` (which must mirror the same URL), else the
    /// one whose URL has the same identity, else a new one (stored without the URL's credentials).
    /// - Throws: ``SyncError/nameTaken(name:url:)`` when `name` mirrors another URL.
    public static func resolve(url: URL, name: String?, in store: any MirrorReading & CollectionEditing) async throws -> (CollectionRecord, isNew: Bool) {
        let identity = CollectionIdentity.of(url)
        let stored = URLCredentials.removed(from: url).absoluteString
        if let name {
            if let existing = try await store.collection(named: name) {
                guard let existingURL = URL(string: existing.url), CollectionIdentity.of(existingURL) == identity else {
                    throw SyncError.nameTaken(name: name, url: existing.url)
                }
                return (existing, false)
            }
            return (try await store.createCollection(preferredName: name, url: stored, now: Date()), true)
        }
        let matches = try await store.collections().filter { URL(string: $0.url).map(CollectionIdentity.of) == identity }
        if matches.count > 1 { throw SyncError.ambiguousCollection(url: identity, names: matches.map(\.name)) }
        if let match = matches.first { return (match, false) }
        return (try await store.createCollection(preferredName: CollectionIdentity.defaultName(for: url), url: stored, now: Date()), true)
    }
}
