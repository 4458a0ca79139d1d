import Fetcher
import Foundation
import Models
import Storage

/// The Fetcher of the reader: stored posts at once, refreshed by syncing `url`.
public enum PostsFetcher {
    public static func make(items: ItemDatabase, sync: PostSync, url: URL?, timeout: Duration = .seconds(10)) -> Fetcher<[Post]> {
        Fetcher(
            readLocal: { try items.posts() },
            refreshRemote: {
                guard let url else {
                    throw FetchFailure(message: "nothing to refresh: no synced collection and no --url", isOffline: false)
                }
                _ = try await sync.run(url: url, timeout: timeout)
            },
            classify: { error in
                (error as? FetchFailure) ?? FetchFailure(message: ErrorDescription.line(error), isOffline: ErrorDescription.isOffline(error))
            })
    }
}
