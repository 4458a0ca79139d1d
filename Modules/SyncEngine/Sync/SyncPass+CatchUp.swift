import Foundation
import HTTPCache
import MirrorStore
import Pagination

// MARK: A listing that moved while it was read

extension SyncPass {
    /// The most pages a catch-up reads; a listing still moving then is caught up by the next sync.
    static let maximumCatchUpPages = 10

    /// After a pass over pages by number or offset found keys again on later pages (items added at
    /// the front pushed the others back): reads what was added from the first page on, until a page
    /// brings nothing new (at most ``maximumCatchUpPages``), and writes it before the first page's items.
    func catchUp(pass: Int, plan: PaginationPlan, reader: PageReader) async throws {
        var next: URL? = firstURL
        var seen: Set<String> = []
        var position = ItemPosition.caughtUpBase
        var pages = 0
        while let url = next, pages < Self.maximumCatchUpPages, seen.insert(url.absoluteString).inserted {
            try Task.checkCancellation()
            let fetched = try await fetcher.fetch(url, index: pages, plan: plan, policy: .reloadRevalidatingCacheData)
            pages += 1
            tally.update {
                $0.count(fetched.response, storedLength: fetched.storedLength)
                $0.caughtUpPages += 1
            }
            guard !fetched.endsCollection, !fetched.isFromStorage else { break }
            let (items, link, _, _) = try reader.read(fetched, typicalSize: nil)
            let write = try await store.writeCaughtUp(items, of: collection.id, pass: pass, firstPosition: position, now: Date())
            position += items.count
            tally.update { summary in
                summary.created += write.created
                summary.changed += write.changed
                summary.caughtUpItems += items.count - write.repeated
            }
            guard write.repeated < items.count else { break }
            next = link.next
        }
        let summary = tally.update { $0 }
        events(.listingMoved("the listing moved while it was read: \(Plural.count(summary.repeatedItems, "item")) seen twice; "
            + "caught up \(Plural.count(summary.caughtUpPages, "page")) from the first (\(summary.caughtUpItems) new)"
            + (pages == Self.maximumCatchUpPages ? "; it is still moving: the next sync catches up the rest" : "")))
    }
}
