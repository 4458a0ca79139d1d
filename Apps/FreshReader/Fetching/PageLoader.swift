import Composition
import Foundation
import MirrorStore
import NamedSources
import SyncEngine

/// Infinite scroll's background half: fetches a collection's next page through the cache and
/// the sync (the same request, page size included, the collection was synced with), stores
/// it in one transaction, and says when it is done. When to ask, and never twice at once, is
/// the reader's ``Prefetch`` rule (see `ReaderState`).
struct PageLoader: Sendable {
    let services: FreshServices
    let store: any SyncStore
    let work: BackgroundWork
    let done: @Sendable (_ collectionID: Int64, _ failure: String?) -> Void

    /// Starts loading the next page of collection `id` in the background.
    func loadNextPage(of id: Int64) { work.track(Task { done(id, await fetchNextPage(of: id)) }) }

    private func fetchNextPage(of id: Int64) async -> String? {
        do {
            // Another process may have finished the pass meanwhile: then there is no next page.
            guard let collection = try await store.collection(id: id), collection.plan == nil || !collection.passComplete else { return nil }
            var options = try SourcesFile.located().syncOptions(for: collection)
            options.maximumPages = 1
            // A server out of reach fails the page at once (R tries it again), not after a sync's retries.
            options.retry.retriesUnreachable = false
            _ = try await CollectionSync(network: services, store: store).run(options)
            return nil
        } catch {
            return ErrorDescription.line(error)
        }
    }
}
