import Foundation
import HTTPCache
import MirrorStore
import Pagination
import Synchronization

/// A page read and ready to be written.
struct ReadPage: Sendable {
    var fetched: FetchedPage
    var content: PageContent
    var itemCount: Int
}

/// Where a pass's pages come from, the first step of ``SyncPass``'s walk: ``OnePageAtATime`` or ``ChainLookahead``.
protocol PageSource: Sendable {
    /// Page `index` at `url`, asked with `policy` (`nil`: the sync's); `guessing`: whether pages after it may be asked.
    func take(_ index: Int, url: URL, plan: PaginationPlan?, policy: CachePolicy?, guessing: Bool) async throws -> FetchedPage
    /// Drops whatever was asked for ahead: what is in flight finishes, unused.
    func dropGuesses()
    /// Drops what was asked for ahead and waits for it: the requests that went out count in the
    /// summary, with their bytes (the walk is over).
    func settle() async
    /// Cancels whatever was asked for ahead, dropped or not (the walk failed or was stopped).
    func cancelAll()
}

/// The plain path's source: one request at a time, for the page the walk is at.
struct OnePageAtATime: PageSource {
    let fetcher: PageFetcher

    func take(_ index: Int, url: URL, plan: PaginationPlan?, policy: CachePolicy?, guessing: Bool) async throws -> FetchedPage {
        try await fetcher.fetch(url, index: index, plan: plan, policy: policy)
    }

    func dropGuesses() {}
    func settle() async {}
    func cancelAll() {}
}

/// Where a pass's read pages go, the last step of the walk: ``WriteAtOnce`` or ``WriteBehind``.
protocol PageSink: Sendable {
    /// Hands `page` over to be written; throws what stopped the writing.
    func put(_ page: ReadPage) async throws
}

/// The plain path's sink: each page written in its own transaction before the walk goes on.
struct WriteAtOnce: PageSink {
    let writer: PageWriter

    func put(_ page: ReadPage) async throws { try await writer.write([page]) }
}

extension WriteBehind: PageSink where Page == ReadPage {}

/// Writes read pages into the mirror, in pass ``pass``, one transaction per batch, and says what
/// each page changed (its event, the summary's counts).
struct PageWriter: Sendable {
    let store: any SyncStore
    let collectionID: Int64
    let pass: Int
    let tally: SyncTally
    let events: @Sendable (SyncEvent) -> Void
    /// Pages in a row that list only items earlier pages of the pass listed, and stop it: as many
    /// as the empty pages that do (``SyncOptions/maximumEmptyPages``). In a listing named by
    /// position a repeat is the listing moving, but a page of nothing else is a server that
    /// ignores the page parameter (`--paginate page` on a listing that has no pages), or a listing
    /// that grows as fast as it is read, which would otherwise be read forever.
    let maximumRepeatingPages: Int
    private let repeatingRun = RepeatingRun()

    /// Writes `pages` in one transaction. A key already listed by an earlier page of the pass
    /// abandons the pass (the pages before it stay written) and is the error.
    func write(_ pages: [ReadPage]) async throws {
        let writes: [PageWrite]
        var failure: (any Error)?
        do {
            writes = try await store.writePages(pages.map(\.content), of: collectionID, pass: pass, now: Date())
        } catch let duplicate as DuplicateKey {
            writes = duplicate.written
            try await store.abandonPass(of: collectionID)
            failure = SyncError.duplicateKey(url: pages[writes.count].content.url, key: duplicate.key, pageIndex: duplicate.foundOnPage,
                                             earlierPageIndex: duplicate.pageIndex)
        }
        for (page, write) in zip(pages, writes) {
            let unchanged = page.content.items == nil
            let summary = tally.update { summary in
                summary.countWritten(page: page.fetched.index, items: page.itemCount, write)
                if unchanged { summary.unchangedPages += 1 }
                return summary
            }
            events(.page(PageEvent(index: page.fetched.index, url: page.fetched.url, decision: page.fetched.response.decision,
                                   items: page.itemCount, unchanged: unchanged, write: write, summary: summary)))
            let run = repeatingRun.count(items: page.itemCount, repeated: write.repeated)
            if failure == nil, run >= maximumRepeatingPages {
                // Resuming would walk on into the same pages: the next sync starts over.
                try await store.abandonPass(of: collectionID)
                failure = SyncError.repeatingPages(url: page.content.url, count: run)
            }
        }
        if let failure { throw failure }
    }
}

/// The pages in a row, up to the last written, that listed only items earlier pages of the pass
/// listed (the writer's batches come one at a time).
private final class RepeatingRun: Sendable {
    private let pages = Mutex(0)

    /// Counts a page written with `items`, `repeated` of them listed before; returns the run.
    func count(items: Int, repeated: Int) -> Int {
        pages.withLock { run in
            run = items > 0 && repeated == items ? run + 1 : 0
            return run
        }
    }
}
