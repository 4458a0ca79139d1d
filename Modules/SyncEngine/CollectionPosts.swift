import Fetcher
import Foundation
import HTTPCache
import Models
import Pagination
import Storage

/// The reader's Fetcher over one collection: its stored items shown as posts at once, refreshed
/// by syncing the collection's URL as it was synced (page size included).
public enum CollectionPosts {
    /// - Parameter policy: the cache policy of each refresh. The default asks the origin every
    ///   time (conditionally, so an unchanged page costs a 304): someone who presses "refresh"
    ///   wants the server's answer, and "offline" when it cannot be reached.
    public static func make(
        database: ItemDatabase, services: FreshServices, collection: CollectionRecord?,
        policy: CachePolicy = .reloadRevalidatingCacheData, timeout: Duration = .seconds(10)
    ) -> Fetcher<[Post]> {
        Fetcher(
            readLocal: { try collection.map { try posts(of: $0.id, in: database) } ?? [] },
            refreshRemote: {
                guard let collection, let url = URL(string: collection.url) else {
                    throw FetchFailure(message: "nothing to refresh: no synced collection and no --url", isOffline: false)
                }
                var options = SyncOptions(url: url)
                options.name = collection.name
                options.policy = policy
                options.timeout = timeout
                _ = try await CollectionSync(services: services, database: database).run(options)
            },
            classify: { error in
                (error as? FetchFailure) ?? FetchFailure(message: ErrorDescription.line(error), isOffline: ErrorDescription.isOffline(error))
            })
    }

    /// The items of a collection as posts: the members a post has, when present.
    public static func posts(of collectionID: Int64, in database: ItemDatabase) throws -> [Post] {
        var posts: [Post] = []
        try database.forEachItem(in: collectionID) { item in posts.append(post(from: item, index: posts.count)) }
        return posts
    }

    public static func post(from item: StoredItem, index: Int) -> Post {
        let root = (try? JSONDocument(Data(item.json.utf8)))?.root
        func text(_ names: [String]) -> String {
            names.lazy.compactMap { root?.member($0)?.string ?? root?.member($0).map(\.rawText) }.first ?? ""
        }
        let id: Int = if case .integer(let value) = item.key { value } else { index + 1 }
        let updated = ISO8601DateFormatter().date(from: text(["updated_at", "updatedAt", "date", "created_at"])) ?? Date(timeIntervalSince1970: 0)
        return Post(id: id, title: text(["title", "name", "subject", "login"]), body: text(["body", "text", "summary", "description", "content"]),
                    author: text(["author", "user", "by"]), updatedAt: updated)
    }
}
