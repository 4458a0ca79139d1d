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
    /// brings nothing new, and writes it before the first page's items. The listing may move again
    /// while the catch-up reads past its first page: then it starts again from the first, its new
    /// items before those it found, until the first page brings nothing new (at most
    /// ``maximumCatchUpPages`` in all).
    func catchUp(pass: Int, plan: PaginationPlan, reader: PageReader) async throws {
        var pages = 0
        var sweep = 0
        while pages < Self.maximumCatchUpPages {
            let read = try await catchUpSweep(pass: pass, plan: plan, reader: reader, base: ItemPosition.caughtUpBase - sweep << 32,
                                              pageLimit: Self.maximumCatchUpPages - pages)
            pages += read
            sweep += 1
            // Only the first page read: it brought nothing new, or the listing ends there.
            guard read > 1 else { break }
        }
        let summary = tally.update { $0 }
        events(.listingMoved("the listing moved while it was read: \(Plural.count(summary.repeatedItems, "item")) seen twice; "
            + "caught up \(Plural.count(summary.caughtUpPages, "page")) from the first (\(summary.caughtUpItems) new)"
            + (pages == Self.maximumCatchUpPages ? "; it is still moving: the next sync catches up the rest" : "")))
    }

    /// One reading from the first page until a page brings nothing new (at most `pageLimit`
    /// pages), its items written from position `base` on; returns how many pages it read.
    private func catchUpSweep(pass: Int, plan: PaginationPlan, reader: PageReader, base: Int, pageLimit: Int) async throws -> Int {
        var next: URL? = firstURL
        var seen: Set<String> = []
        var position = base
        var pages = 0
        while let url = next, pages < pageLimit, seen.insert(url.absoluteString).inserted {
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
        return pages
    }
}
