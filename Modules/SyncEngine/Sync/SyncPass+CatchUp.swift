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
        var settled = false
        while pages < Self.maximumCatchUpPages {
            // Each reading's items go before the last one's: the gap between their bases holds any
            // page. One page of the budget is kept for the first page's confirming read, so
            // "still moving" is said only when a page brought something new.
            let (read, quiet) = try await catchUpSweep(pass: pass, plan: plan, reader: reader, base: ItemPosition.caughtUpBase - (sweep << 32),
                                                       pageLimit: max(1, Self.maximumCatchUpPages - pages - 1))
            pages += read
            sweep += 1
            // Settled when the first page brought nothing new (or the listing ends there).
            if read == 1 && quiet { settled = true }
            if settled || !quiet { break }
        }
        let summary = tally.update { $0 }
        events(.listingMoved("the listing moved while it was read: \(Plural.count(summary.repeatedItems, "item")) seen twice; "
            + "caught up \(Plural.count(summary.caughtUpPages, "page")) from the first (\(summary.caughtUpItems) new)"
            + (settled ? "" : "; it is still moving: the next sync catches up the rest")))
        if !settled { notePartial("the listing was still moving after \(Self.maximumCatchUpPages) pages of catching up: the next sync catches up the rest") }
    }

    /// One reading from the first page until a page brings nothing new (at most `pageLimit`
    /// pages), its items written from position `base` on. Returns how many pages it read, and
    /// whether it came to a page that brought nothing new or to the end of the listing (`quiet`)
    /// rather than to its limit.
    private func catchUpSweep(pass: Int, plan: PaginationPlan, reader: PageReader, base: Int, pageLimit: Int) async throws -> (read: Int, quiet: Bool) {
        var next: URL? = firstURL
        var seen: Set<String> = []
        var position = base
        var pages = 0
        while let url = next, seen.insert(url.absoluteString).inserted {
            guard pages < pageLimit else { return (pages, false) }
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
        return (pages, true)
    }
}
