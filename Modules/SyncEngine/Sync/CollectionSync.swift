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
/// stored. The next page's request goes out while a page is being written. A complete pass
/// deletes the items no page listed. Syncs of one collection, from any processes, run one at a
/// time (``SyncLock``).
public struct CollectionSync: Sendable {
    private let client: CachingClient
    private let database: ItemDatabase
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double

    /// - Parameters:
    ///   - sleep: how retries wait (tests pass one that returns at once).
    ///   - random: the jitter source of backoffs, in 0..<1.
    public init(
        client: CachingClient, database: ItemDatabase,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.client = client
        self.database = database
        self.sleep = sleep
        self.random = random
    }

    /// Runs one sync. `events` hears about each page, wait and decision as they happen; the
    /// ``SyncSummary`` of every page event is the run so far (what an interrupted run wrote).
    public func run(_ options: SyncOptions, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async throws -> SyncSummary {
        let started = Date()
        let lock = try await SyncLock.acquire(identity: CollectionIdentity.of(options.url), databasePath: database.path) {
            events(.waitingForLock(holder: $0))
        }
        defer { withExtendedLifetime(lock) {} }
        let (collection, isNew) = try CollectionResolver.resolve(url: options.url, name: options.name, in: database)
        let tally = SyncTally()
        tally.update { $0.collection = collection.name }
        let run = SyncRun(collection: collection, isNew: isNew, options: options, database: database, tally: tally, events: events,
                          fetcher: PageFetcher(client: client, options: options, origin: PageFetcher.origin(of: options.url),
                                               tally: tally, events: events, sleep: sleep, random: random))
        do {
            try await run.pass()
            try database.recordSyncEnd(of: collection.id, error: nil)
        } catch {
            if isNew, (try? database.collection(id: collection.id))??.plan == nil {
                // Not one page could be read: no collection to keep.
                _ = try? database.deleteCollection(collection.id)
            } else {
                try? database.recordSyncEnd(of: collection.id, error: error is CancellationError ? nil : ErrorDescription.line(error))
            }
            throw error
        }
        return tally.update { summary in
            summary.seconds = Date().timeIntervalSince(started)
            summary.totalItems = (try? database.itemCount(in: collection.id)) ?? summary.items
            return summary
        }
    }
}

/// One run over one collection: the pass, page by page.
private struct SyncRun: Sendable {
    let collection: CollectionRecord
    /// Whether the collection was created for this run (it is announced once its first page reads).
    let isNew: Bool
    let options: SyncOptions
    let database: ItemDatabase
    let tally: SyncTally
    let events: @Sendable (SyncEvent) -> Void
    let fetcher: PageFetcher

    /// The first page's URL with the page size asked for.
    var firstURL: URL {
        PageSize.url(options.url, size: options.limit,
                     parameter: options.overrides.paginate?.options["size"] ?? collection.paginationPlan?.sizeParameter)
    }

    func pass() async throws {
        let storedURL = CollectionIdentity.withoutCredentials(firstURL).absoluteString
        let replan = options.overridesGiven || collection.url != storedURL || collection.plan == nil
        if replan && collection.plan != nil { try database.resetPlan(of: collection.id) }
        let position = try database.startPass(of: collection.id, restart: options.restart || replan)
        var plan = replan ? nil : collection.paginationPlan
        if let plan { events(.plan(plan.style.summary)) }
        var url = firstURL
        if position.isResumed {
            tally.update { $0.resumedAtPage = position.nextPageIndex }
            events(.resumed(pageIndex: position.nextPageIndex))
            guard let next = position.nextURL.flatMap(URL.init(string:)) else {
                return try finish(pass: position.pass, reason: "the pass had reached the last page")
            }
            url = next
        }
        var seen = Set(position.fetchedURLs)
        seen.insert(CollectionIdentity.withoutCredentials(url).absoluteString)
        var index = position.nextPageIndex
        var typicalSize = index > 0 ? try database.page(0, of: collection.id)?.itemCount : nil
        var emptyRun = 0
        let slot = PrefetchSlot()
        slot.start { [fetcher, plan, url, index] in try await fetcher.fetch(url, index: index, plan: plan) }
        try await withTaskCancellationHandler {
            while let fetched = try await slot.take() {
                try Task.checkCancellation()
                guard !fetched.endsCollection else {
                    return try finish(pass: position.pass, reason: "page \(index + 1) answered 404: past the last page")
                }
                let stored = try database.page(index, of: collection.id)
                let step = try step(fetched, stored: stored, plan: &plan, typicalSize: typicalSize)
                if let next = step.next {
                    let shown = CollectionIdentity.withoutCredentials(next).absoluteString
                    guard seen.insert(shown).inserted else { throw SyncError.loop(url: shown, pageIndex: index + 1) }
                    try Task.checkCancellation()
                    slot.start { [fetcher, plan, index] in try await fetcher.fetch(next, index: index + 1, plan: plan) }
                }
                try record(step, fetched: fetched, pass: position.pass, plan: plan)
                if index == 0, step.itemCount > 0 { typicalSize = step.itemCount }
                emptyRun = step.itemCount == 0 && step.next != nil ? emptyRun + 1 : 0
                if emptyRun >= options.maximumEmptyPages {
                    throw SyncError.emptyPages(url: CollectionIdentity.withoutCredentials(fetched.url).absoluteString, count: emptyRun)
                }
                guard step.next != nil else { return try finish(pass: position.pass, reason: step.endReason) }
                index += 1
            }
        } onCancel: {
            slot.cancel()
        }
    }

    // MARK: One page

    /// What one page says: its next page, and either that its stored content is current or the
    /// reading to write.
    private struct Step {
        var next: URL?
        var endReason: String?
        var itemCount: Int
        var validator: String
        var reading: PageReading?
    }

    private func step(_ fetched: FetchedPage, stored: PageRecord?, plan: inout PaginationPlan?, typicalSize: Int?) throws -> Step {
        let response = fetched.response
        let shownURL = CollectionIdentity.withoutCredentials(fetched.url).absoluteString
        let validator = ContentValidator.of(headerFields: response.headerFields, body: response.body)
        if let stored, plan != nil, stored.url == shownURL, stored.validator == validator {
            return Step(next: stored.nextURL.flatMap(URL.init(string:)), endReason: stored.nextURL == nil ? "the last page, unchanged" : nil,
                        itemCount: stored.itemCount, validator: validator, reading: nil)
        }
        guard response.body.count <= options.maximumPageSize else {
            throw SyncError.pageTooLarge(url: shownURL, limit: options.maximumPageSize)
        }
        let page = try parse(fetched, depth: plan?.recordedDepth ?? JSONDocument.recordedDepth)
        do {
            if plan == nil {
                var detected = try PaginationDetector.plan(for: page, overrides: options.overrides)
                if detected.sizeParameter == nil, options.limit != nil { detected.sizeParameter = PageSize.parameter(in: firstURL) }
                try database.setPlan(detected, url: CollectionIdentity.withoutCredentials(firstURL).absoluteString, of: collection.id)
                if isNew { events(.created(name: collection.name)) }
                events(.plan(detected.style.summary))
                plan = detected
                if detected.recordedDepth > JSONDocument.recordedDepth {
                    return try read(try parse(fetched, depth: detected.recordedDepth), plan: detected, typicalSize: typicalSize, validator: validator)
                }
            }
            return try read(page, plan: plan!, typicalSize: typicalSize, validator: validator)
        } catch let error as PageError {
            throw SyncError.invalidPage(url: shownURL, detail: error.description)
        }
    }

    private func read(_ page: PageResponse, plan: PaginationPlan, typicalSize: Int?, validator: String) throws(PageError) -> Step {
        let reading = try plan.read(page, typicalSize: typicalSize)
        return Step(next: reading.next, endReason: reading.endReason, itemCount: reading.itemCount, validator: validator, reading: reading)
    }

    private func parse(_ fetched: FetchedPage, depth: Int) throws -> PageResponse {
        let response = fetched.response
        do {
            let document = try JSONDocument(response.body, recordedDepth: depth)
            return PageResponse(url: fetched.url, linkFields: response.headerFields[values: .link],
                                totalCountField: response.headerFields[.xTotalCount], document: document)
        } catch {
            throw SyncError.invalidJSON(url: CollectionIdentity.withoutCredentials(fetched.url).absoluteString, detail: error.description)
        }
    }

    /// Writes the page (or records it unchanged) and reports it.
    private func record(_ step: Step, fetched: FetchedPage, pass: Int, plan: PaginationPlan?) throws {
        let shownURL = CollectionIdentity.withoutCredentials(fetched.url).absoluteString
        var write = PageWrite()
        if let reading = step.reading, let plan {
            do {
                write = try database.writePage(
                    fetched.index, of: collection.id, pass: pass, url: shownURL,
                    nextURL: step.next.map { CollectionIdentity.withoutCredentials($0).absoluteString }, validator: step.validator,
                    body: String(decoding: fetched.response.body, as: UTF8.self), items: plan.items, key: plan.key, keys: reading.keys)
            } catch let duplicate as DuplicateKey {
                try database.abandonPass(of: collection.id)
                throw SyncError.duplicateKey(url: shownURL, key: duplicate.key, pageIndex: fetched.index, earlierPageIndex: duplicate.pageIndex)
            }
        } else {
            try database.markPageUnchanged(fetched.index, of: collection.id, pass: pass)
        }
        let summary = tally.update { summary in
            summary.items += step.itemCount
            summary.created += write.created
            summary.changed += write.changed
            if step.reading == nil { summary.unchangedPages += 1 }
            return summary
        }
        events(.page(PageEvent(index: fetched.index, url: fetched.url, decision: fetched.response.decision, items: step.itemCount,
                               unchanged: step.reading == nil, write: write, summary: summary)))
    }

    private func finish(pass: Int, reason: String?) throws {
        let removed = try database.finishPass(pass, of: collection.id)
        tally.update {
            $0.removed = removed
            $0.complete = true
            $0.endReason = reason
        }
    }
}

extension HTTPField.Name {
    /// RFC 8288 `Link`.
    static let link = HTTPField.Name("Link")!
    /// The collection size some APIs send beside a page.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
}
