import Fetcher
import Foundation
import HTTPCache
import Models
import Storage

/// The Fetcher of the reader: the stored posts at once, refreshed by syncing `url`.
public enum PostsFetcher {
    /// - Parameter policy: the cache policy of each refresh. The default asks the origin
    ///   every time (conditionally, so an unchanged page costs a 304): someone who presses
    ///   "refresh" wants the server's answer, and "offline" when it cannot be reached, even
    ///   while the cached pages are still fresh.
    public static func make(
        items: ItemDatabase, sync: PostSync, url: URL?, policy: CachePolicy = .reloadRevalidatingCacheData,
        timeout: Duration = .seconds(10)
    ) -> Fetcher<[Post]> {
        Fetcher(
            readLocal: { try items.posts() },
            refreshRemote: {
                guard let url else {
                    throw FetchFailure(message: "nothing to refresh: no synced collection and no --url", isOffline: false)
                }
                _ = try await sync.run(url: url, policy: policy, timeout: timeout)
            },
            classify: { error in
                (error as? FetchFailure) ?? FetchFailure(message: ErrorDescription.line(error), isOffline: ErrorDescription.isOffline(error))
            })
    }
}
