import Foundation
import HTTPCache
import MirrorStore
import Pagination

// MARK: Incremental syncs

extension SyncPass {
    /// The value an incremental run starts from: the largest stored value of `--since`'s member,
    /// once a whole pass has completed and none is unfinished (and not `--full`), unless the last
    /// whole pass may have missed items (``PassKind/partial``); `nil` for a whole pass.
    /// After an incremental run of the same `--since` that did not end, the value it started from:
    /// what it merged (an item edited late, listed early) raised the largest stored value past the
    /// pages it never read, and starting from there would skip them for good.
    func incrementalStart() async throws -> (spec: SinceSpec, value: String)? {
        guard let since = options.since, !options.full, collection.plan != nil, collection.passComplete,
              collection.lastCompleteAt != nil, collection.lastPassKind != .partial else { return nil }
        if let unfinished = collection.incrementalFrom, collection.since == since.description { return (since, unfinished) }
        guard let value = try await store.largestValue(of: since.member, in: collection.id) else {
            // Said, or every run would read every page with no word why (a member misspelled).
            events(.notice("no stored item has \(since.member) (--since \(since)): this run reads every page"))
            return nil
        }
        return (since, value)
    }

    /// An incremental run: the pages of the first URL with `PARAM=VALUE`, each read whole (its
    /// body is needed for its link, so the cache is not asked) and its items merged into the
    /// mirror. Nothing is removed, and the pass the mirror stands on is left as it is.
    func runIncremental(_ start: (spec: SinceSpec, value: String)) async throws {
        guard let plan = collection.plan else { return }
        let reader = PageReader(plan: plan, itemsGiven: options.overrides.items != nil)
        announce(plan)
        tally.update { $0.incremental = "\(start.spec.parameter)=\(start.value)" }
        try await store.recordIncrementalStart(start.value, of: collection.id)
        var walk = PageWalk(first: QueryItems.setting(start.spec.parameter, to: start.value, in: firstURL),
                            limits: PageWalk.Limits(maximumEmptyPages: options.maximumEmptyPages))
        while case .page(let index, let url) = walk.next {
            try Task.checkCancellation()
            let fetched = try await fetcher.fetch(url, index: index, plan: plan, policy: .reloadIgnoringLocalCacheData)
            guard !fetched.endsCollection else {
                try walkError { () throws(PageWalkError) in try walk.pastTheEnd(status: fetched.response.status.code) }
                continue
            }
            let (items, link, absent, _) = try reader.read(fetched, typicalSize: walk.typicalSize)
            if absent { notePartial(PartialMirror.absentItems(plan.items)) }
            try walkError { () throws(PageWalkError) in
                try walk.follow(link)
                try walk.count(items: items.count)
            }
            let write = try await store.mergeItems(items, of: collection.id, now: Date())
            let summary = tally.update { summary in
                summary.count(fetched.response, storedLength: nil)
                summary.countWritten(page: index, items: items.count, write)
                return summary
            }
            events(.page(PageEvent(index: index, url: url, decision: fetched.response.decision, items: items.count, unchanged: false,
                                   write: write, summary: summary)))
        }
        // A total that fell while the run read its pages pulled entries back past the pages read:
        // the run may have missed some, so the next one starts from the same value again.
        if let fall = walk.totalFall {
            notePartial(PartialMirror.movedTotal(fall))
        } else {
            try await store.recordPassKind(.incremental, of: collection.id)
        }
        tally.update {
            $0.complete = true
            if case .end(let end) = walk.next { $0.endReason = end.reason }
        }
    }
}
