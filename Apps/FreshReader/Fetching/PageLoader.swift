import Foundation
import Storage
import Synchronization
import SyncEngine

/// Infinite scroll's background half: fetches a collection's next page through the cache and
/// the sync (the same request, page size included, the collection was synced with), stores
/// it in one transaction, and says when it is done. One page at a time per collection: a
/// second request while one is on its way is ignored, so no page is ever asked twice at once.
final class PageLoader: Sendable {
    private let services: FreshServices
    private let database: ItemDatabase
    private let done: @Sendable (_ collectionID: Int64, _ failure: String?) -> Void
    private let loading = Mutex<Set<Int64>>([])

    init(services: FreshServices, database: ItemDatabase, done: @escaping @Sendable (Int64, String?) -> Void) {
        self.services = services
        self.database = database
        self.done = done
    }

    /// Starts loading the next page of collection `id`, unless one is loading already.
    func loadNextPage(of id: Int64) {
        guard loading.withLock({ $0.insert(id).inserted }) else { return }
        Task {
            let failure = await fetchNextPage(of: id)
            loading.withLock { _ = $0.remove(id) }
            done(id, failure)
        }
    }

    private func fetchNextPage(of id: Int64) async -> String? {
        do {
            // Another process may have finished the pass meanwhile: then there is no next page.
            guard let collection = try database.collection(id: id), collection.plan == nil || !collection.passComplete else { return nil }
            guard let url = URL(string: collection.url) else { return "the collection's URL is not valid: \(collection.url)" }
            var options = SyncOptions(url: url)
            options.name = collection.name
            options.maximumPages = 1
            _ = try await CollectionSync(services: services, database: database).run(options)
            return nil
        } catch {
            return ErrorDescription.line(error)
        }
    }
}
