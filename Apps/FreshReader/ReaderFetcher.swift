import Fetcher
import Foundation
import HTTPCache
import Models
import Storage
import SyncEngine

/// The reader's Fetcher: the stored posts at once, refreshed by syncing `url`.
///
/// Unlike ``PostsFetcher``, every refresh asks the origin (conditionally, so an unchanged page
/// costs a 304): a user who starts the reader or presses `r` wants the server's answer, and
/// "offline" when it cannot be reached, even while the cached pages are still fresh.
enum ReaderFetcher {
    static func make(items: ItemDatabase, sync: PostSync, url: URL?, timeout: Duration = .seconds(10)) -> Fetcher<[Post]> {
        Fetcher(
            readLocal: { try items.posts() },
            refreshRemote: {
                guard let url else {
                    throw FetchFailure(message: "nothing to refresh: no synced collection and no --url", isOffline: false)
                }
                _ = try await sync.run(url: url, policy: .reloadRevalidatingCacheData, timeout: timeout)
            },
            classify: { error in
                (error as? FetchFailure) ?? FetchFailure(message: ErrorDescription.line(error), isOffline: ErrorDescription.isOffline(error))
            })
    }
}
