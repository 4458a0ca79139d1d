import Foundation
import HTTPCache
import MirrorStore
import Pagination

/// One run over one collection's pages, from where the pass stands to its last page (or the run's
/// page limit): **fetch** (a ``PageSource``), **read**, **write** (a ``PageSink``), as ``PageWalk``
/// says (docs/architecture.md, "The same hops as files", step 3). Without ``SpeedUps``: one page at
/// a time, each written at once; the read-ahead, ``ChainLookahead`` and ``WriteBehind`` ride on it.
struct SyncPass: Sendable {
    let collection: CollectionRecord
    /// Whether the collection was created for this run (it is announced once its first page reads).
    let isNew: Bool
    let options: SyncOptions
    let store: any SyncStore
    let tally: SyncTally
    let events: @Sendable (SyncEvent) -> Void
    let fetcher: PageFetcher
    /// The thread the pages are fetched and read on, when the transport has one (see `TransferLoop`).
    let loop: (any TaskExecutor)?
    let speedUps: SpeedUps
    let pageValidators: any PageValidators
    /// Set once a page named by position (or followed by one) came back changed
    /// (``guessesAhead(plan:)``).
    private let positionalPageChanged = OnceFlag()

    /// How many read pages (by weight) may wait for the writer: three batches.
    static let writeQueueCapacity = 48
    /// How many pages (by weight) share a transaction when they come fast. Each commit writes
    /// the last, partly filled, pages of the table and its indexes to the log again: a cold sync
    /// of 1,000 pages into SQLite took 0.559 → 0.539 s with 16 instead of 8 (CPU 0.699 → 0.678 s,
    /// 20 alternating rounds); 32 gained less.
    static let writeBatchSize = 16
    /// The weight in a batch of a page the cache answered (a 304: no body held) whose items are
    /// current: its write is only its pass's record (one row, or a value in one PostgreSQL
    /// statement), so four share the room of a page of items. A warm sync of 1,000 pages then
    /// writes 16 batches, not 63 (measured when batches were 8 pages: 32, not 125, and
    /// PostgreSQL's warm sync took 0.92× the time, 16 paired rounds; SQLite's measured the
    /// same). A current page that came whole (a server without validators) holds its body, and
    /// weighs 1 like any other.
    static let answeredPageWeight = 0.25
    /// The longest a page waits for others to share its transaction.
    static let writeBatchDelay = Duration.milliseconds(100)
    /// The most page requests in flight when the last pass's chain says where the next are (see
    /// ``lookaheadDepth``): 16 measured no faster than 8, which stays near what browsers open (6).
    static let maximumLookahead = 8

    /// No deeper than the origin may be asked at once, nor than the run's page limit (no guess past it).
    private var lookaheadDepth: Int {
        min(Self.maximumLookahead, fetcher.gate.capacity(of: fetcher.origin), options.maximumPages ?? .max)
    }

    /// The first page's URL with the page size asked for.
    var firstURL: URL {
        PageSize.url(options.url, size: options.limit,
                     parameter: options.overrides.paginate?.options["size"] ?? collection.plan?.sizeParameter)
    }

    // MARK: The pass

    func run() async throws {
        // A changed URL or a plan the user changed reads the pages anew, from the first.
        let planChanged = collection.plan.map { !$0.agrees(with: options.overrides) } ?? true
        let replan = planChanged || collection.url != firstURL.absoluteString
        if !replan, let since = try await incrementalStart() { return try await runIncremental(since) }
        if replan && collection.plan != nil { try await store.resetPlan(of: collection.id) }
        let position = try await store.startPass(of: collection.id, restart: options.restart || replan, now: Date())
        let chain = storedChain()
        defer { chain.close() }
        var reader = PageReader(plan: replan ? nil : collection.plan, itemsGiven: options.overrides.items != nil)
        if let plan = reader.plan { announce(plan) }
        var walk = try await startWalk(at: position, chain: chain)
        var readBefore: [Int: (url: URL, link: PageLink)] = [:]
        if reader.plan != nil, !position.isResumed {
            readBefore = try await revalidateFirst(try await chain.records(at: options.firstPages), reader: reader, pass: position.pass)
            try walkError { () throws(PageWalkError) in try walk.stepOver(readBefore) }
        }
        let source = pageSource(chain: chain, skipping: Set(readBefore.keys))
        defer { source.cancelAll() }
        var pass = position.pass
        try await writing(pass: pass) { sink in
            try await walkPages(&walk, reader: &reader, chain: chain, source: source, into: sink)
        }
        await source.settle()
        // Pages read on demand (a reader's scroll, a page per run) are each asked once: such a
        // pass ends without the revisit and so removes nothing; the next refresh settles it.
        let onDemand = options.maximumPages != nil
        // A resumed pass is revisited up to where it resumed; every page, until the listing holds
        // still, when removals need confirming.
        var movedWhileReadAgain = false
        if !onDemand, case .end = walk.next {
            if let unlisted = try await removalsToConfirm(after: walk, pass: pass) {
                movedWhileReadAgain = try await lookAgainUntilStill(&walk, pass: &pass, reader: &reader, from: unlisted)
            } else if position.isResumed {
                (walk, pass) = try await revisit(after: walk, from: position, reader: &reader)
            }
        }
        if case .end(var end) = walk.next {
            if position.isResumed, onDemand { end.unsettled = end.unsettled ?? "the pages were read on demand, a page per run" }
            if movedWhileReadAgain { end.unsettled = end.unsettled ?? "the listing kept moving while its pages were read again" }
            // The listing moved while it was read: what was added at its front since is read now.
            if !onDemand, tally.update({ $0.repeatedItems }) > 0, let plan = reader.plan { try await catchUp(pass: pass, plan: plan, reader: reader) }
            var doubt = walk.totalFall.map(PartialMirror.movedTotal) ?? (movedWhileReadAgain ? PartialMirror.movedWhileReadAgain : nil)
            // A pass that removes nothing puts back what no page listed: an item that slid may be among it.
            let keptAside = end.unsettled != nil ? try await store.setAsideCount(of: collection.id) > 0 : false
            if doubt == nil, keptAside, !onDemand { doubt = PartialMirror.keptAside }
            try await finish(pass: pass, end: end, statedTotal: walk.statedTotal, doubt: doubt, keptAside: keptAside)
        }
    }

    /// The page records the store holds now, read as the walk goes.
    private func storedChain() -> StoredChain {
        StoredChain(readingWith: { [store, id = collection.id] in try await store.pages(of: id, in: $0) },
                    validators: pageValidators, readsAhead: speedUps.contains(.recordReadAhead))
    }

    /// The pass's source of pages: the chain lookahead (a speed-up), or one page at a time.
    /// `below`: the pages whose records may be followed (all without it).
    private func pageSource(chain: StoredChain, below: Int? = nil, skipping skipped: Set<Int>) -> any PageSource {
        guard speedUps.contains(.chainLookahead) else { return OnePageAtATime(fetcher: fetcher) }
        return ChainLookahead(fetcher: fetcher, chain: chain, below: below, depth: lookaheadDepth, executor: loop, skipping: skipped)
    }

    private func writer(pass: Int) -> PageWriter {
        PageWriter(store: store, collectionID: collection.id, pass: pass, tally: tally, events: events,
                   maximumRepeatingPages: options.maximumEmptyPages)
    }

    /// Runs `walk` with its pages going into pass `pass`, written behind it or each at once; returns once all are.
    private func writing(pass: Int, _ walk: (any PageSink) async throws -> Void) async throws {
        let writer = writer(pass: pass)
        guard speedUps.contains(.writeBehind) else { return try await walk(WriteAtOnce(writer: writer)) }
        let behind = WriteBehind<ReadPage>(capacity: Self.writeQueueCapacity, batchSize: Self.writeBatchSize,
                                           maximumDelay: Self.writeBatchDelay, weight: { $0.content.items == nil && $0.fetched.isFromStorage ? Self.answeredPageWeight : 1 },
                                           write: writer.write)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await behind.writeAll() }
            do {
                try await walk(behind)
            } catch {
                // What was read is written all the same; a failed write, being earlier, is the error.
                try await behind.finish()
                throw error
            }
            try await behind.finish()
        }
    }

    /// Fetch, read, write: page after page, until the walk ends or pauses (`policy`: over the sync's).
    /// `lastPass`: the chain's records are the last pass's (not this pass's own, as in a look
    /// again), so an empty page before pages they list items on leaves the end unsettled.
    private func walkPages(
        _ walk: inout PageWalk, reader: inout PageReader, chain: StoredChain, source: any PageSource,
        into sink: any PageSink, policy: CachePolicy? = nil, lastPass: Bool = true
    ) async throws {
        var ahead: FetchedPage?
        while case .page(let index, let url) = walk.next {
            try Task.checkCancellation()
            try await chain.prepare(from: index)
            // 1. Fetch (unless its request went out while the page before was read).
            let fetched = if let ahead { ahead } else {
                try await source.take(index, url: url, plan: reader.plan, policy: asking(policy), guessing: guessesAhead(plan: reader.plan))
            }
            ahead = nil
            guard !fetched.endsCollection else {
                let wasStored = chain[index] != nil
                try walkError { () throws(PageWalkError) in try walk.pastTheEnd(status: fetched.response.status.code, wasStored: wasStored) }
                continue
            }
            let page = try await kept(fetched, stored: chain[index], plan: reader.plan)
            let listedAfter = lastPass && (chain[index + 1]?.itemCount ?? 0) > 0
            noteChange(of: page, at: url, next: chain[index]?.nextURL, plan: reader.plan, source: source)
            if speedUps.contains(.readAhead), !isCurrent(page, stored: chain[index], plan: reader.plan), let link = reader.linkAhead(of: page) {
                ahead = try await readAhead(page, link: link, listedAfter: listedAfter, walk: &walk, reader: reader, source: source,
                                            into: sink, policy: policy)
                continue
            }
            // 2. Read.
            if reader.plan == nil { try await detectPlan(from: page, reader: &reader) }
            let (read, link) = try read(page, stored: chain[index], reader: reader, typicalSize: walk.typicalSize)
            if index == 0 { try checkFirstPage(page, itemCount: read.itemCount, link: link, reader: reader) }
            try walkError { () throws(PageWalkError) in
                try walk.follow(link)
                try walk.count(items: read.itemCount, listedAfter: listedAfter)
            }
            // 3. Write.
            try await sink.put(read)
        }
    }

    /// Read-ahead: the next page's request goes out before this page's items are read, so the server prepares it meanwhile.
    private func readAhead(
        _ page: FetchedPage, link: PageLink, listedAfter: Bool, walk: inout PageWalk, reader: PageReader, source: any PageSource,
        into sink: any PageSink, policy: CachePolicy?
    ) async throws -> FetchedPage? {
        try walkError { () throws(PageWalkError) in try walk.follow(link) }
        let following = walk.next
        let guessing = guessesAhead(plan: reader.plan)
        async let next: FetchedPage? = {
            guard case .page(let index, let url) = following else { return nil }
            return try await source.take(index, url: url, plan: reader.plan, policy: asking(policy), guessing: guessing)
        }()
        // On the transfer loop the request above goes out when this task first suspends: now.
        await Task.yield()
        do {
            let (items, absent, envelope) = try reader.items(of: page)
            if absent, let path = reader.plan?.items { notePartial(PartialMirror.absentItems(path)) }
            if page.index == 0 { try checkFirstPage(page, itemCount: items.count, link: link, reader: reader) }
            try walkError { () throws(PageWalkError) in try walk.count(items: items.count, listedAfter: listedAfter) }
            try await sink.put(ReadPage(fetched: page, content: content(page, link: link, items: items, envelope: envelope, plan: reader.plan),
                                          itemCount: items.count))
        } catch {
            // The next page's answer is dropped with this page; its request still counts.
            if let dropped = try? await next { tally.update { $0.requests += dropped.response.decision.requestsSent } }
            throw error
        }
        return try await next
    }

    /// Revisits a pass that ended by resuming (docs/cli.md, "A resumed pass is a consistent copy"): from
    /// the first page, in a pass of its own, each asked conditionally, until it rejoins the pages read since.
    /// Without `position` (``removalsToConfirm(after:pass:)``, resumed or not), it reads every page.
    ///
    /// When the listing moved under the resumed pass (items seen twice), the revisit reads every page
    /// instead: an item that had moved from a page read before the stop onto one read after it was
    /// left where it was, as a repeat, and the page it now lies on, read before the revisit, did not
    /// take it; the revisit rewrites the first pages as they are now, which sets that item aside, and
    /// only a page of the revisit listing it again keeps it from being removed as gone.
    private func revisit(
        after first: PageWalk, from position: PassPosition?, reader: inout PageReader
    ) async throws -> (PageWalk, pass: Int) {
        let moved = tally.update { $0.repeatedItems } > 0
        let resumedAt = moved ? nil : position
        let rejoining = resumedAt.flatMap { position in
            position.nextURL.flatMap(URL.init(string:)).map { (index: position.nextPageIndex, url: $0) }
        }
        // No page limit here: a pass is complete once, whole, or not at all.
        var walk = PageWalk(revisiting: firstURL, rejoining: rejoining, after: first,
                            limits: PageWalk.Limits(maximumEmptyPages: options.maximumEmptyPages))
        let pass = try await store.revisitPass(of: collection.id, now: Date())
        // The entries of the pages just read are written before they are asked for again: as
        // the ETags the cache holds, their answers are 304s, not downloads.
        pageValidators.drain()
        // The records as the walk left them (the first walk's chain holds them as they were).
        let chain = storedChain()
        defer { chain.close() }
        // Guesses go no further than the rejoining page: the pages from there on are current.
        let source = pageSource(chain: chain, below: resumedAt.map { $0.nextPageIndex - 1 }, skipping: [])
        defer { source.cancelAll() }
        let before = tally.update { $0.pages }
        try await writing(pass: pass) { sink in
            try await walkPages(&walk, reader: &reader, chain: chain, source: source, into: sink, policy: .reloadRevalidatingCacheData,
                                lastPass: false)
        }
        await source.settle()
        tally.update { $0.revisitedPages += $0.pages - before }
        // A changed chain of pages was read again whole; else the pages read since the resume complete it.
        if case .end = walk.next, let position { try await store.joinPass(pass, of: collection.id, pagesFrom: position.nextPageIndex) }
        return (walk, pass)
    }

    /// The most times ``lookAgainUntilStill(_:pass:reader:from:)`` reads every page.
    static let maximumLooks = 3

    /// Reads every page again (a revisit, each page asked conditionally) until a reading leaves
    /// the same items unlisted as the reading before it (`unlisted`: what the pass left), or none;
    /// at most ``maximumLooks`` times. A reading that finds no item and loses none saw no item
    /// slide: a deletion during it would have set aside what it deleted and what slid. Edits and
    /// bytes that change on every answer (a timestamp in the envelope) move no item. Returns
    /// whether the listing was still moving at the last reading, or one ended unsettled (its
    /// stated total moved): what no page listed must then stay.
    private func lookAgainUntilStill(
        _ walk: inout PageWalk, pass: inout Int, reader: inout PageReader, from unlisted: UnlistedItems
    ) async throws -> Bool {
        var before = unlisted
        for _ in 1...Self.maximumLooks {
            (walk, pass) = try await revisit(after: walk, from: nil, reader: &reader)
            guard case .end(let end) = walk.next, end.unsettled == nil else { return true }
            let after = try await store.unlistedItems(after: pass, of: collection.id, lastPage: end.lastPage)
            if after == before || after.isEmpty { return false }
            before = after
        }
        return true
    }

    /// What a whole pass would remove that it must read the listing again for, first: `nil` when
    /// nothing. When pages named by position came back changed, the listing may have shifted under
    /// the walk: an item deleted upstream ahead of the pages still to read pulls a live item back
    /// onto a page read already, so no page of the pass lists it, and the pass would remove an
    /// item the server still lists. So when there is something to remove, revisits read every
    /// page again (each a 304 unless it changed since) until the listing holds still, and only
    /// what they too find on no page is removed. A stated total that changed has said so already:
    /// that pass removes nothing.
    private func removalsToConfirm(after walk: PageWalk, pass: Int) async throws -> UnlistedItems? {
        guard case .end(let end) = walk.next, end.unsettled == nil, walk.totalFall == nil, positionalPageChanged.isSet else { return nil }
        let unlisted = try await store.unlistedItems(after: pass, of: collection.id, lastPage: end.lastPage)
        return unlisted.isEmpty ? nil : unlisted
    }

    // MARK: Fetching

    /// Whether the pages the stored chain names after a page are asked before it is read (``ChainLookahead``).
    /// - Not once a page of a listing whose pages may be named by position (page numbers, offsets,
    ///   links that carry them) came back changed. Asked at once, such pages may be answered in any
    ///   order; while the listing moves, an entry pushed from a page answered late onto one answered
    ///   early would be read on neither (and the pass would remove it). A page answered unchanged
    ///   still held all it held (nothing added ahead of it pushed an entry off it), so the guesses
    ///   stand while every page is a 304; after the first changed one, its pages are read one after
    ///   another, and entries added ahead of them are only read twice.
    /// - Not once the server has asked to slow down or states a limit: a wrong guess would spend the budget.
    private func guessesAhead(plan: PaginationPlan?) -> Bool {
        guard plan != nil, !positionalPageChanged.isSet else { return false }
        return tally.update { $0.retries == 0 } && !fetcher.gate.isLimited(fetcher.origin)
    }

    /// A page named by position (or followed by one) that came back changed, as it is read: what
    /// was asked ahead of it may have been answered before it, so it is dropped, and the rest of
    /// the pass is read one page at a time (``guessesAhead(plan:)``, ``asking(_:)``).
    private func noteChange(of page: FetchedPage, at url: URL, next: String?, plan: PaginationPlan?, source: (any PageSource)?) {
        // Checked in this order, a page costs a URL parse only until the first change.
        guard !page.isFromStorage, !positionalPageChanged.isSet, let plan, Self.isPositional(url, next: next, in: plan),
              positionalPageChanged.set() else { return }
        source?.dropGuesses()
    }

    /// The policy a page is asked with: once a page named by position changed, each later one is
    /// asked of the server, even one the cache holds as fresh (its stored answer, or a dropped
    /// guess's, may be older than the change).
    private func asking(_ policy: CachePolicy?) -> CachePolicy? {
        guard positionalPageChanged.isSet, (policy ?? options.policy) == .useProtocolCachePolicy else { return policy }
        return .reloadRevalidatingCacheData
    }

    /// Whether the page at `url`, or the one the last pass found after it (`next`), is named by
    /// position (``PaginationPlan/mayMove(at:)``): a first page often names none (`?per_page=100`),
    /// and the next ones do (`&page=2`).
    private static func isPositional(_ url: URL, next: String?, in plan: PaginationPlan) -> Bool {
        plan.mayMove(at: url) || next.flatMap(URL.init(string:)).map(plan.mayMove(at:)) == true
    }

    /// The page to read: `fetched`, or fetched again in full when the cache answered for content the mirror
    /// lacks (the page cache keeps no bodies; a sync stopped between storing the entry and its items never gets them).
    private func kept(_ fetched: FetchedPage, stored: PageRecord?, plan: PaginationPlan?) async throws -> FetchedPage {
        var page = fetched
        if fetched.isFromStorage, !isCurrent(fetched, stored: stored, plan: plan) {
            tally.update { $0.requests += fetched.response.decision.requestsSent }
            page = try await fetcher.fetch(fetched.url, index: fetched.index, plan: plan, policy: .reloadIgnoringLocalCacheData)
        }
        tally.update { $0.count(page.response, storedLength: page.storedLength) }
        return page
    }

    /// Whether the items stored for the page are `fetched`'s content: same URL and validator (a page
    /// that gained or lost an item since its write keeps no validator, see `PageWriteRule`).
    private func isCurrent(_ fetched: FetchedPage, stored: PageRecord?, plan: PaginationPlan?) -> Bool {
        guard let stored, plan != nil, stored.url == fetched.url.absoluteString else { return false }
        return stored.validator == ContentValidator.of(fetched.response)
    }

    // MARK: Reading

    /// What the page holds, ready to write, and where it points. A page whose content is the one
    /// stored is not read: the stored record says where it points, and nothing is rewritten.
    private func read(_ page: FetchedPage, stored: PageRecord?, reader: PageReader, typicalSize: Int?) throws -> (ReadPage, PageLink) {
        if let stored, isCurrent(page, stored: stored, plan: reader.plan) {
            var link = stored.link
            // A size stated in a field may change while the body does not (a 304 names the body).
            if let total = reader.plan?.headerTotal(page.response.headerFields[.xTotalCount]) { link.statedTotal = total }
            return (ReadPage(fetched: page, content: content(page, link: link, items: nil, envelope: nil, plan: reader.plan),
                             itemCount: stored.itemCount), link)
        }
        let (items, link, absent, envelope) = try reader.read(page, typicalSize: typicalSize)
        if absent, let path = reader.plan?.items { notePartial(PartialMirror.absentItems(path)) }
        return (ReadPage(fetched: page, content: content(page, link: link, items: items, envelope: envelope, plan: reader.plan),
                         itemCount: items.count), link)
    }

    private func detectPlan(from page: FetchedPage, reader: inout PageReader) async throws {
        var plan = try reader.detectPlan(from: page, overrides: options.overrides)
        if plan.sizeParameter == nil, options.limit != nil {
            plan.sizeParameter = PageSize.parameter(in: firstURL)
            reader.plan = plan
        }
        try await store.setPlan(plan, url: firstURL.absoluteString, of: collection.id)
        if isNew { events(.created(name: collection.name)) }
        announce(plan)
    }

    /// Says how the pages are read (`-v`), and in the summary whether items are keyed by content.
    func announce(_ plan: PaginationPlan) {
        events(.plan(plan.style.summary))
        if plan.key == .contentHash { tally.update { $0.keyedByContent = true } }
    }

    /// The page as the mirror takes it; where pages may move, a key listed earlier is the listing moving.
    private func content(_ page: FetchedPage, link: PageLink?, items: PageReader.Items?, envelope: PageEnvelope?,
                         plan: PaginationPlan?) -> PageContent {
        PageContent(index: page.index, url: page.url.absoluteString, nextURL: link?.next?.absoluteString,
                    validator: ContentValidator.of(page.response), items: items, statedTotal: link?.statedTotal,
                    repeatsAllowed: plan?.mayMove(at: page.url) ?? false, envelope: envelope)
    }

    // MARK: Starting and ending

    /// A new walk from the first page, or the rest of the unfinished pass.
    private func startWalk(at position: PassPosition, chain: StoredChain) async throws -> PageWalk {
        let limits = PageWalk.Limits(maximumEmptyPages: options.maximumEmptyPages, maximumPages: options.maximumPages)
        guard position.isResumed else { return PageWalk(first: firstURL, limits: limits) }
        tally.update { $0.resumedAtPage = position.nextPageIndex + 1 }
        events(.resumed(pageIndex: position.nextPageIndex))
        // The page the pass stopped after may have promised this one (a 404 here is then no end).
        let records = try await chain.records(at: [0, position.nextPageIndex - 1])
        let (first, before) = (records.first { $0.pageIndex == 0 }, records.first { $0.pageIndex == position.nextPageIndex - 1 })
        return PageWalk(resuming: PageWalk.ResumePoint(
            index: position.nextPageIndex, url: position.nextURL.flatMap(URL.init(string:)), readURLDigests: position.fetchedURLDigests,
            firstPageSize: first?.itemCount, statedTotal: before?.statedTotal, totalSaysMore: before?.totalSaysMore ?? false),
            limits: limits)
    }

    /// Revalidates `pages` and writes those that changed, before the walk (a reader's refresh: the
    /// pages on screen first); returns where each points, for the walk to step over.
    private func revalidateFirst(_ pages: [PageRecord], reader: PageReader, pass: Int) async throws -> [Int: (url: URL, link: PageLink)] {
        var revalidated: [Int: (url: URL, link: PageLink)] = [:]
        for record in pages {
            guard let url = URL(string: record.url) else { continue }
            let fetched = try await fetcher.fetch(url, index: record.pageIndex, plan: reader.plan)
            guard !fetched.endsCollection else { continue }
            let page = try await kept(fetched, stored: record, plan: reader.plan)
            // Before the walk and its source: a change here counts as one the walk met (``removalsToConfirm(after:pass:)``).
            noteChange(of: page, at: url, next: record.nextURL, plan: reader.plan, source: nil)
            let (read, link) = try read(page, stored: record, reader: reader, typicalSize: nil)
            try await writer(pass: pass).write([read])
            revalidated[record.pageIndex] = (url, link)
        }
        return revalidated
    }

    // MARK: A partial mirror

    /// The first page's signs of a partial mirror (``PartialMirror``): a page size the server ignored;
    /// a member `--paginate` names that the page lacks (read when its body came, not from a 304).
    private func checkFirstPage(_ page: FetchedPage, itemCount: Int, link: PageLink, reader: PageReader) throws {
        // A page the walk counts its way past (offset, page number) points onward by the walk's
        // own reckoning, not the server's: a short one asks the next page (see `PaginationPlan.link`).
        let ignoredSize = PartialMirror.ignoredPageSize(asked: options.limit, parameter: reader.plan?.sizeParameter, itemCount: itemCount,
                                                        pointsOnward: link.next != nil && reader.plan?.countsItsOwnPages == false)
        let absent = page.isFromStorage ? nil : try reader.absentMember(of: options.overrides.paginate, in: page)
        [ignoredSize, absent].compactMap { $0 }.forEach(notePartial)
    }

    /// Adds a sign of a partial mirror to the summary, once however many pages show it.
    func notePartial(_ doubt: String) {
        tally.update { summary in
            if !summary.partial.contains(doubt) { summary.partial.append(doubt) }
        }
    }

    /// Ends a pass that reached its last page: what no page listed is removed, unless the collection
    /// changed under the walk; a stated total above what is stored is said (``PartialMirror``).
    /// `doubt`: why items may have slid past the pages read (a stated total that fell, a second
    /// look that found the listing moving), if they may have. `keptAside`: the pass removes
    /// nothing and had set items aside, which are put back: what the server lists now is known
    /// only once a pass reads those pages again, so the pass is recorded as partial (the next run
    /// is a whole pass, not an incremental one), said (`doubt`) or not (a reader's pages on demand).
    private func finish(pass: Int, end: PageWalk.End, statedTotal: Int?, doubt: String?, keptAside: Bool) async throws {
        let removed = try await store.finishPass(pass, of: collection.id, lastPage: end.lastPage, removingUnlisted: end.unsettled == nil,
                                                 recording: doubt == nil && !keptAside ? .full : .partial, now: Date())
        if let unsettled = end.unsettled { events(.notice("\(unsettled): nothing removed this time")) }
        tally.update {
            $0.removed = removed
            $0.complete = true
            $0.endReason = [end.reason, end.unsettled.map { "\($0), so nothing was removed" }].compactMap { $0 }.joined(separator: "; ")
        }
        // A total that fell while the pass read the pages measures nothing stored against: items
        // removed ahead of the pages still to read pulled others back past them (the next sync
        // reads them), so the mirror may be partial; so may a second look that found the listing
        // moving. (A total that grew is mostly items added ahead, which push others on to be read
        // twice, as a catch-up handles; a deletion among them can still slide one back unseen until
        // the next sync.) Otherwise a stated total above what is stored is the sign; counting the
        // items costs a scan in PostgreSQL, so only it needs it.
        if let doubt {
            notePartial(doubt)
        } else if let statedTotal, let missing = PartialMirror.missingItems(statedTotal: statedTotal, stored: try await store.itemCount(in: collection.id)) {
            notePartial(missing)
        }
    }

    /// Runs a step of the walk, its errors said as the sync says them.
    func walkError(_ step: () throws(PageWalkError) -> Void) throws {
        do {
            try step()
        } catch .loop(let url, let page) {
            throw SyncError.loop(url: url.absoluteString, pageIndex: page)
        } catch .emptyPages(let url, let count) {
            throw SyncError.emptyPages(url: url.absoluteString, count: count)
        } catch .missingPage(let url, let status) {
            throw SyncError.invalidPage(url: url.absoluteString,
                                        detail: "answered \(status), but the page before it states a total that says it exists")
        }
    }
}

extension PageRecord {
    /// Where the stored page points, as its last reading said.
    var link: PageLink {
        PageLink(next: nextURL.flatMap(URL.init(string:)), endReason: "the last page, unchanged", statedTotal: statedTotal)
    }
}
