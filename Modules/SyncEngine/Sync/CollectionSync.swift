import CurlTransport
import Foundation
import HTTPCache
import HTTPFields
import HTTPTypes
import Pagination
import Storage
import Synchronization

/// Mirrors one paginated JSON collection into the item database, through the HTTP cache.
///
/// A sync is one pass over the pages, from the first to the last, resumed where it stopped
/// if an earlier run did not finish (see ``ItemDatabase/startPass(of:restart:now:)``). Each
/// page is fetched (retrying what may be retried), read with the collection's plan (detected
/// from the first page), and written in one transaction, unless its content is the one already
/// stored. The next page's request goes out while a page is being written, and, when the
/// next page's URL can be found before the page is read (a cursor, a next URL, a `Link`
/// field), while the page is being read (see ``PendingRead``). A complete pass
/// deletes the items no page listed. Syncs of one collection, from any processes, run one at a
/// time (``SyncLock``).
public struct CollectionSync: Sendable {
    private let services: FreshServices
    private let database: ItemDatabase
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - sleep: how retries wait (tests pass one that returns at once).
    ///   - random: the jitter source of backoffs, in 0..<1.
    /// - Parameters:
    ///   - services: the page client (``FreshServices/pageClient``) fetches; its cache writes are
    ///     waited for when a run ends.
    public init(
        services: FreshServices, database: ItemDatabase,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.services = services
        self.database = database
        self.sleep = sleep
        self.random = random
    }

    /// Runs one sync. `events` hears about each page, wait and decision as they happen; the
    /// ``SyncSummary`` of every page event is the run so far (what an interrupted run wrote).
    public func run(_ given: SyncOptions, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async throws -> SyncSummary {
        let started = Date()
        let tally = SyncTally()
        // A user name and password in the URL travel as an Authorization field, so no URL that
        // is requested, stored or shown carries them.
        var options = given
        if let authorization = CollectionIdentity.basicAuthorization(in: given.url), options.headerFields[.authorization] == nil {
            options.headerFields[.authorization] = authorization
        }
        options.url = CollectionIdentity.withoutCredentials(given.url)
        let lock = try await SyncLock.acquire(identity: CollectionIdentity.of(options.url), databasePath: database.path) {
            events(.waitingForLock(holder: $0))
        }
        defer { withExtendedLifetime(lock) {} }
        let (collection, isNew) = try CollectionResolver.resolve(url: options.url, name: options.name, in: database)
        tally.update { $0.collection = collection.name }
        let run = SyncRun(collection: collection, isNew: isNew, options: options, database: database, tally: tally, events: events,
                          fetcher: PageFetcher(client: services.pageClient, options: options, origin: PageFetcher.origin(of: options.url),
                                               tally: tally, events: events, sleep: sleep, random: random))
        defer { services.drainPageCache() }
        do {
            try await run.pass()
            try database.recordSyncEnd(of: collection.id, error: nil)
        } catch {
            if isNew, (try? database.collection(id: collection.id))??.plan == nil {
                // Not one page could be read: no collection to keep.
                _ = try? database.deleteCollection(collection.id)
            } else {
                // An interruption (Ctrl-C cancels the task or the transfer) is no error: the pass is unfinished.
                let interrupted = error is CancellationError || error as? TransportError == .cancelled
                try? database.recordSyncEnd(of: collection.id, error: interrupted ? nil : ErrorDescription.line(error))
            }
            events(.stopped(tally.update { summary in
                summary.seconds = Date().timeIntervalSince(started)
                summary.totalItems = (try? database.itemCount(in: collection.id)) ?? summary.items
                return summary
            }))
            throw error
        }
        return tally.update { summary in
            summary.seconds = Date().timeIntervalSince(started)
            summary.totalItems = (try? database.itemCount(in: collection.id)) ?? summary.items
            return summary
        }
    }
}

/// One run over one collection: the pass, page by page, in two stages that overlap: a task
/// fetches and reads the pages in order (each request goes out as soon as the page before it
/// says where it is), the run writes them, several per transaction when it falls behind.
private struct SyncRun: Sendable {
    let collection: CollectionRecord
    /// Whether the collection was created for this run (it is announced once its first page reads).
    let isNew: Bool
    let options: SyncOptions
    let database: ItemDatabase
    let tally: SyncTally
    let events: @Sendable (SyncEvent) -> Void
    let fetcher: PageFetcher

    /// How many read pages may wait for the writer.
    static let queueCapacity = 32
    /// How much lower than the process the item writer runs (Linux thread niceness).
    static let writerNiceness: Int32 = 5
    /// How many pages share a transaction when they come fast: a commit costs about as much as
    /// writing a page of a hundred items.
    static let batchSize = 8
    /// The longest a page waits for others to share its transaction.
    static let batchDelay = Duration.milliseconds(100)
    /// How many page requests may be in flight when the last pass's chain of pages says where
    /// the next ones are (see ``Lookahead``).
    static let lookaheadDepth = 4

    /// The first page's URL with the page size asked for.
    var firstURL: URL {
        PageSize.url(options.url, size: options.limit,
                     parameter: options.overrides.paginate?.options["size"] ?? collection.paginationPlan?.sizeParameter)
    }

    /// What the fetching stage hands the writer.
    enum Queued: Sendable {
        case page(FetchedPage, Step)
        /// The pass reached its last page.
        case end(Ending)
        /// The run fetched as many pages as it was allowed; the pass goes on next time.
        case pause
    }

    /// Why the pass reached its end, and whether the collection changed while it was read (a
    /// stated total that moved: offsets and page numbers then shift, and an item no page listed
    /// may still exist, so nothing is removed this time).
    struct Ending: Sendable {
        var reason: String?
        var unsettled: String?
    }

    func pass() async throws {
        let replan = options.overridesGiven || collection.url != firstURL.absoluteString || collection.plan == nil
        if replan && collection.plan != nil { try database.resetPlan(of: collection.id) }
        let position = try database.startPass(of: collection.id, restart: options.restart || replan)
        let plan = replan ? nil : collection.paginationPlan
        if let plan { events(.plan(plan.style.summary)) }
        var start = Cursor(url: firstURL, index: position.nextPageIndex, seen: Set(position.fetchedURLs))
        if position.isResumed {
            tally.update { $0.resumedAtPage = position.nextPageIndex + 1 }
            events(.resumed(pageIndex: position.nextPageIndex))
            guard let next = position.nextURL.flatMap(URL.init(string:)) else {
                return try finish(pass: position.pass, ending: Ending(reason: "the pass had reached the last page"))
            }
            start.url = next
        }
        let chain = try database.pages(of: collection.id)
        if position.isResumed {
            start.typicalSize = chain[0]?.itemCount
            // The page the pass stopped after may have promised this one (a 404 here is then no end).
            start.totalSaysMore = chain[position.nextPageIndex - 1]?.totalSaysMore ?? false
            start.passTotal = chain[position.nextPageIndex - 1]?.statedTotal
        }
        start.seen.insert(start.url.absoluteString)
        var refreshed: [Int: (url: String, next: URL?, statedTotal: Int?)] = [:]
        if let plan, !position.isResumed {
            refreshed = try await refreshFirst(options.firstPages.compactMap { chain[$0] }, plan: plan, pass: position.pass)
        }
        let queue = PageQueue<Queued>(capacity: Self.queueCapacity, batchSize: Self.batchSize, maximumDelay: Self.batchDelay)
        // The pages' chain runs on a thread of its own that makes each transfer itself.
        let pagesThread = TransferThread(name: "fresh.pages")
        let producer = Task(executorPreference: pagesThread) { [self, start] in
            defer { pagesThread.stop() }
            do {
                try await produce(from: start, plan: plan, chain: chain, refreshed: refreshed, into: queue)
            } catch {
                await queue.fail(error)
            }
        }
        defer { producer.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await consume(queue, pass: position.pass)
            } onCancel: {
                producer.cancel()
            }
        } catch {
            await queue.close()
            throw error
        }
    }

    /// Revalidates the given stored pages and writes those that changed, before the walk;
    /// returns what each says (its URL and next page), so the walk does not ask again.
    private func refreshFirst(_ pages: [PageRecord], plan: PaginationPlan, pass: Int) async throws -> [Int: (url: String, next: URL?, statedTotal: Int?)] {
        var refreshed: [Int: (url: String, next: URL?, statedTotal: Int?)] = [:]
        for record in pages {
            guard let url = URL(string: record.url) else { continue }
            var plan: PaginationPlan? = plan
            var fetched = try await fetcher.fetch(url, index: record.pageIndex, plan: plan)
            guard !fetched.endsCollection else { continue }
            if fetched.isFromStorage, !isCurrent(fetched, stored: record, plan: plan) {
                tally.update { $0.requests += fetched.response.decision.requestsSent }
                fetched = try await fetcher.fetch(url, index: record.pageIndex, plan: plan, policy: .reloadIgnoringLocalCacheData)
            }
            tally.update { $0.count(fetched.response, storedLength: fetched.storedLength) }
            let step = try step(fetched, stored: record, plan: &plan, typicalSize: nil)
            try write([(fetched, step)], pass: pass)
            refreshed[record.pageIndex] = (record.url, step.next, step.statedTotal)
        }
        return refreshed
    }

    // MARK: Fetching and reading

    /// Where the fetching stage is.
    struct Cursor: Sendable {
        var url: URL
        var index: Int
        /// Every page URL of this pass so far (a repeat would loop).
        var seen: Set<String>
        /// Items on a full page when the URL does not say (the first page's count).
        var typicalSize: Int?
        var emptyRun = 0
        /// The page before stated a total that says this page exists.
        var totalSaysMore = false
        /// The collection size the pass's pages state, and how it changed during the pass.
        var passTotal: Int?
        var totalChange: String?

        /// The end of the pass, for `reason`.
        func ending(_ reason: String?) -> Queued { .end(Ending(reason: reason, unsettled: totalChange)) }

        /// Notes what the page just read states: whether its total promises the next page, and
        /// whether that total differs from the pass's.
        mutating func read(next: URL?, statedTotal: Int?) {
            totalSaysMore = next != nil && statedTotal != nil
            guard let statedTotal else { return }
            if let passTotal, passTotal != statedTotal, totalChange == nil {
                totalChange = "the collection's stated total changed from \(passTotal) to \(statedTotal) while the pass read it"
            }
            passTotal = passTotal ?? statedTotal
        }
    }

    private func produce(
        from start: Cursor, plan initialPlan: PaginationPlan?, chain: [Int: PageRecord],
        refreshed: [Int: (url: String, next: URL?, statedTotal: Int?)], into queue: PageQueue<Queued>
    ) async throws {
        var cursor = start
        var plan = initialPlan
        let lookahead = Lookahead(fetcher: fetcher, chain: chain, depth: Self.lookaheadDepth, skipping: Set(refreshed.keys))
        defer { lookahead.cancelAll() }
        // The page (at `url`) read while the request for the next one (at `next`) waits.
        var pending: (read: PendingRead<Step>, url: URL, next: URL)?
        while true {
            if Task.isCancelled {
                // What was read is written all the same.
                _ = try await pending?.read.result()
                throw CancellationError()
            }
            if let done = refreshed[cursor.index], done.url == cursor.url.absoluteString {
                // Revalidated and written before the walk: only its next page is needed.
                guard let next = done.next else { return await queue.put(cursor.ending("the last page, refreshed first"), isLast: true) }
                cursor.read(next: next, statedTotal: done.statedTotal)
                guard cursor.seen.insert(next.absoluteString).inserted else {
                    throw SyncError.loop(url: next.absoluteString, pageIndex: cursor.index)
                }
                cursor.url = next
                cursor.index += 1
                continue
            }
            // No guessing once the server has asked to slow down.
            let guessing = plan != nil && tally.update { $0.retries == 0 }
            var fetched: FetchedPage
            do {
                fetched = try await lookahead.take(cursor.index, url: cursor.url, plan: plan, guessing: guessing, ahead: pending?.read)
            } catch {
                // The page before is written all the same; its own error comes first.
                _ = try await pending?.read.result()
                throw error
            }
            if let (read, url, expected) = pending {
                pending = nil
                let step: Step
                do {
                    step = try await read.result()
                } catch {
                    // The next page's answer is dropped with the page; its request still counts.
                    tally.update { $0.requests += fetched.response.decision.requestsSent }
                    throw error
                }
                cursor.emptyRun = try emptyRun(after: step, before: cursor.emptyRun, url: url)
                cursor.read(next: step.next, statedTotal: step.statedTotal)
                if step.next?.absoluteString != expected.absoluteString {
                    // The page's reading disagrees with the quick pass: what came is not its next page.
                    tally.update { $0.requests += fetched.response.decision.requestsSent }
                    cursor.seen.remove(expected.absoluteString)
                    guard let next = step.next else { return await queue.put(cursor.ending(step.endReason), isLast: true) }
                    guard cursor.seen.insert(next.absoluteString).inserted else {
                        throw SyncError.loop(url: next.absoluteString, pageIndex: cursor.index - 1)
                    }
                    cursor.url = next
                    continue
                }
            }
            if fetched.endsCollection {
                let status = fetched.response.status.code
                guard !cursor.totalSaysMore else {
                    throw SyncError.invalidPage(url: fetched.url.absoluteString,
                                                detail: "answered \(status), but the page before it states a total that says it exists")
                }
                return await queue.put(cursor.ending("page \(cursor.index + 1) answered \(status): past the last page"), isLast: true)
            }
            let stored = lookahead.stored(cursor.index)
            if fetched.isFromStorage, !isCurrent(fetched, stored: stored, plan: plan) {
                // The cache holds only this page's validators, and the items stored are not that
                // content (a sync stopped between the two): the body is needed again.
                tally.update { $0.requests += fetched.response.decision.requestsSent }
                fetched = try await fetcher.fetch(cursor.url, index: cursor.index, plan: plan, policy: .reloadIgnoringLocalCacheData)
            }
            tally.update { $0.count(fetched.response, storedLength: fetched.storedLength) }
            if let plan, let next = nextPageAhead(of: fetched, plan: plan, cursor: &cursor, from: start, refreshed: refreshed) {
                // Read this page while the server prepares the next one.
                let (emptyRunBefore, typicalSize) = (cursor.emptyRun, cursor.typicalSize)
                pending = (PendingRead(read: { [self, fetched] in
                    var known: PaginationPlan? = plan
                    return try self.step(fetched, stored: stored, plan: &known, typicalSize: typicalSize)
                }, deliver: { [self, fetched] step in
                    _ = try emptyRun(after: step, before: emptyRunBefore, url: fetched.url)
                    await queue.put(.page(fetched, step))
                }), fetched.url, next)
                cursor.url = next
                cursor.index += 1
                continue
            }
            let step = try step(fetched, stored: stored, plan: &plan, typicalSize: cursor.typicalSize)
            if cursor.index == 0, step.itemCount > 0 { cursor.typicalSize = step.itemCount }
            cursor.emptyRun = try emptyRun(after: step, before: cursor.emptyRun, url: fetched.url)
            cursor.read(next: step.next, statedTotal: step.statedTotal)
            if let next = step.next, !cursor.seen.insert(next.absoluteString).inserted {
                throw SyncError.loop(url: next.absoluteString, pageIndex: cursor.index)
            }
            await queue.put(.page(fetched, step))
            guard let next = step.next else { return await queue.put(cursor.ending(step.endReason), isLast: true) }
            if let maximum = options.maximumPages, cursor.index + 1 - start.index >= maximum { return await queue.put(.pause, isLast: true) }
            cursor.url = next
            cursor.index += 1
        }
    }

    /// The next page's URL from a quick pass over `fetched`, when the page can be read while
    /// that request waits: a body just downloaded, a style whose next page does not depend on
    /// the items, a next page not seen before this pass (it is marked seen), not refreshed
    /// first, and within `--max-pages`.
    private func nextPageAhead(
        of fetched: FetchedPage, plan: PaginationPlan, cursor: inout Cursor, from start: Cursor,
        refreshed: [Int: (url: String, next: URL?, statedTotal: Int?)]
    ) -> URL? {
        guard plan.readsNextPageAhead, !fetched.isFromStorage, refreshed[cursor.index + 1] == nil,
              options.maximumPages.map({ cursor.index + 1 - start.index < $0 }) ?? true,
              let document = try? JSONDocument(skimming: fetched.response.body, recordedDepth: plan.nextPageDepth),
              case let next?? = plan.nextPage(aheadOf: PageResponse(
                  url: fetched.url, linkFields: fetched.response.headerFields[values: .link],
                  totalCountField: fetched.response.headerFields[.xTotalCount], document: document)),
              cursor.seen.insert(next.absoluteString).inserted else { return nil }
        return next
    }

    /// The run of empty pages that still point onward, with the page read as `step`; a run
    /// of ``SyncOptions/maximumEmptyPages`` stops the walk.
    private func emptyRun(after step: Step, before run: Int, url: URL) throws -> Int {
        let length = step.itemCount == 0 && step.next != nil ? run + 1 : 0
        if length >= options.maximumEmptyPages { throw SyncError.emptyPages(url: url.absoluteString, count: length) }
        return length
    }

    /// What one page says: its next page, and either that its stored content is current
    /// (`items` is `nil`) or its items to write.
    struct Step: Sendable {
        var next: URL?
        var endReason: String?
        var itemCount: Int
        var validator: String
        var items: [(key: ItemKey, json: Data)]?
        /// The collection size the page states (offset and page-number styles).
        var statedTotal: Int?
    }

    /// Whether the items stored for the page are the content of `fetched`: same URL, same
    /// validator, and every item written for the page still on it.
    private func isCurrent(_ fetched: FetchedPage, stored: PageRecord?, plan: PaginationPlan?) -> Bool {
        guard let stored, plan != nil, stored.url == fetched.url.absoluteString, stored.isIntact else { return false }
        return stored.validator == ContentValidator.of(headerFields: fetched.response.headerFields, body: fetched.response.body)
    }

    private func step(_ fetched: FetchedPage, stored: PageRecord?, plan: inout PaginationPlan?, typicalSize: Int?) throws -> Step {
        let response = fetched.response
        let url = fetched.url.absoluteString
        let validator = ContentValidator.of(headerFields: response.headerFields, body: response.body)
        if let stored, isCurrent(fetched, stored: stored, plan: plan) {
            return Step(next: stored.nextURL.flatMap(URL.init(string:)), endReason: stored.nextURL == nil ? "the last page, unchanged" : nil,
                        itemCount: stored.itemCount, validator: validator, items: nil, statedTotal: stored.statedTotal)
        }
        var page = try parse(fetched, depth: plan?.recordedDepth ?? JSONDocument.recordedDepth)
        do {
            if plan == nil {
                var detected = try PaginationDetector.plan(for: page, overrides: options.overrides)
                if detected.sizeParameter == nil, options.limit != nil { detected.sizeParameter = PageSize.parameter(in: firstURL) }
                try database.setPlan(detected, url: firstURL.absoluteString, of: collection.id)
                if isNew { events(.created(name: collection.name)) }
                events(.plan(detected.style.summary))
                plan = detected
                if detected.recordedDepth > JSONDocument.recordedDepth { page = try parse(fetched, depth: detected.recordedDepth) }
            }
            let reading = try plan!.read(page, typicalSize: typicalSize)
            let items = zip(reading.keys, reading.items.elementsCompactBytes).map { (key: $0, json: $1) }
            return Step(next: reading.next, endReason: reading.endReason, itemCount: reading.itemCount, validator: validator, items: items,
                        statedTotal: reading.statedTotal)
        } catch let error as PageError {
            throw SyncError.invalidPage(url: url, detail: error.description)
        }
    }

    private func parse(_ fetched: FetchedPage, depth: Int) throws -> PageResponse {
        let response = fetched.response
        do {
            let document = try JSONDocument(response.body, recordedDepth: depth)
            return PageResponse(url: fetched.url, linkFields: response.headerFields[values: .link],
                                totalCountField: response.headerFields[.xTotalCount], document: document)
        } catch {
            throw SyncError.invalidJSON(url: fetched.url.absoluteString, detail: error.description)
        }
    }

    // MARK: Writing

    /// Writes what the fetching stage read, batch by batch, until the last page or an error.
    private func consume(_ queue: PageQueue<Queued>, pass: Int) async throws {
        let writer = BackgroundThread(name: "fresh.writer", priority: .lowered(by: Self.writerNiceness))
        defer { writer.stop() }
        while true {
            let batch = try await queue.takeBatch()
            var pages: [(FetchedPage, Step)] = []
            var end: Ending?
            var paused = false
            for element in batch {
                switch element {
                case .page(let fetched, let step): pages.append((fetched, step))
                case .end(let ending): end = ending
                case .pause: paused = true
                }
            }
            try await writer.run { [pages] in try write(pages, pass: pass) }
            if let end { return try finish(pass: pass, ending: end) }
            if paused { return }
        }
    }

    private func write(_ pages: [(FetchedPage, Step)], pass: Int) throws {
        let contents = pages.map { fetched, step in
            PageContent(index: fetched.index, url: fetched.url.absoluteString, nextURL: step.next?.absoluteString,
                        validator: step.validator, items: step.items, statedTotal: step.statedTotal)
        }
        let writes: [PageWrite]
        var failure: (any Error)?
        do {
            writes = try database.writePages(contents, of: collection.id, pass: pass)
        } catch let duplicate as DuplicateKey {
            writes = duplicate.written
            try database.abandonPass(of: collection.id)
            failure = SyncError.duplicateKey(url: contents[writes.count].url, key: duplicate.key, pageIndex: duplicate.foundOnPage,
                                             earlierPageIndex: duplicate.pageIndex)
        }
        for ((fetched, step), write) in zip(pages, writes) {
            let summary = tally.update { summary in
                summary.pagesWritten += 1
                summary.items += step.itemCount
                summary.created += write.created
                summary.changed += write.changed
                if step.items == nil { summary.unchangedPages += 1 }
                return summary
            }
            events(.page(PageEvent(index: fetched.index, url: fetched.url, decision: fetched.response.decision, items: step.itemCount,
                                   unchanged: step.items == nil, write: write, summary: summary)))
        }
        if let failure { throw failure }
    }

    private func finish(pass: Int, ending: Ending) throws {
        let removed = try database.finishPass(pass, of: collection.id, removingUnlisted: ending.unsettled == nil)
        if let unsettled = ending.unsettled { events(.notice("\(unsettled): nothing removed this time")) }
        tally.update {
            $0.removed = removed
            $0.complete = true
            $0.endReason = [ending.reason, ending.unsettled.map { "\($0), so nothing was removed" }].compactMap { $0 }.joined(separator: "; ")
        }
    }
}

extension HTTPField.Name {
    /// RFC 8288 `Link`.
    static let link = HTTPField.Name("Link")!
    /// The collection size some APIs send beside a page.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
}
