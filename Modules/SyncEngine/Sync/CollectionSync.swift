import Foundation
import HTTPCache
import MirrorStore
import Pacing

/// Mirrors one paginated JSON collection into a ``MirrorStore``, through the HTTP cache: one
/// pass over the pages (``SyncPass``), resumed where an earlier run stopped, under the
/// collection's lock, so syncs of one collection, from any processes, run one at a time.
public struct CollectionSync: Sendable {
    private let network: any SyncNetwork
    private let store: any SyncStore
    private let random: @Sendable () -> Double

    /// Syncs through `network` into `store`; `random` is the jitter source of backoffs, in 0..<1.
    public init(network: any SyncNetwork, store: any SyncStore, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.network = network
        self.store = store
        self.random = random
    }

    /// Runs one sync. `events` hears about each page, wait and decision as they happen; the
    /// ``SyncSummary`` of every page event is the run so far (what an interrupted run wrote).
    public func run(_ given: SyncOptions, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async throws -> SyncSummary {
        let options = given.withCredentialsAsField
        return try await store.withLock(collection: CollectionIdentity.of(options.url), onWait: { events(.waitingForLock(holder: $0)) }) {
            try await runLocked(options, events: events)
        }
    }

    private func runLocked(_ options: SyncOptions, events: @escaping @Sendable (SyncEvent) -> Void) async throws -> SyncSummary {
        let started = Date()
        let tally = SyncTally()
        let (collection, isNew) = try await CollectionResolver.resolve(url: options.url, name: options.name, in: store)
        if let remembered = options.rememberedHeaders { try await store.rememberHeaders(remembered, of: collection.id) }
        if let since = options.since?.description, since != collection.since { try await store.rememberSince(since, of: collection.id) }
        tally.update { $0.collection = collection.name }
        defer { network.pageValidators.drain() }
        do {
            try await onPageChain { chain in
                let origin = Origin.of(options.url)
                if let parallel = options.parallel { network.gate.setParallel(parallel, for: origin) }
                let fetcher = PageFetcher(client: chain.client, options: options, origin: origin,
                                          tally: tally, events: events, clock: network.clock, gate: network.gate, random: random)
                try await SyncPass(collection: collection, isNew: isNew, options: options, store: store, tally: tally, events: events,
                                   fetcher: fetcher, loop: chain.executor, speedUps: network.speedUps, pageValidators: network.pageValidators).run()
            }
            try await store.recordSyncEnd(of: collection.id, error: nil, at: Date())
        } catch {
            await recordFailure(error, of: collection, isNew: isNew, tally: tally)
            events(.stopped(await summary(tally, of: collection, since: started)))
            throw error
        }
        return await summary(tally, of: collection, since: started)
    }

    /// Runs `pass` with a page chain of its own, on the chain's thread when it has one (``PageChain``).
    private func onPageChain(_ pass: @escaping @Sendable (PageChain) async throws -> Void) async throws {
        let chain = network.openPageChain(named: "fresh.pages")
        let task = Task(executorPreference: chain.executor) {
            defer { chain.end() }
            try await pass(chain)
        }
        try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// Keeps what the failed run learned: a new collection no page of which could be read is
    /// forgotten; a complete one the run wrote nothing to (offline, say) stays complete; any
    /// other records why it stopped (an interruption is no error: the pass is unfinished), and
    /// what its pages set aside is put back: shown while the server cannot be read.
    private func recordFailure(_ error: any Error, of collection: CollectionRecord, isNew: Bool, tally: SyncTally) async {
        do {
            if isNew, try await store.collection(id: collection.id)?.plan == nil {
                try await store.deleteCollection(collection.id)
                return
            }
            // `collection` is the record from before this run's pass began.
            if collection.passComplete, collection.plan != nil, tally.update({ $0.pagesWritten }) == 0 { try await store.abandonPass(of: collection.id) }
            let putBack = try await store.putBackSetAside(of: collection.id)
            tally.update { $0.itemsPutBack = putBack }
            let interrupted = error is CancellationError || error as? TransportError == .cancelled
            try await store.recordSyncEnd(of: collection.id, error: interrupted ? nil : ErrorDescription.storedLine(error), at: Date())
        } catch {
            // The run's own error is the one to report; the store's is found again by the next command.
        }
    }

    private func summary(_ tally: SyncTally, of collection: CollectionRecord, since started: Date) async -> SyncSummary {
        let total = try? await store.itemCount(in: collection.id)
        return tally.update { summary in
            summary.seconds = Date().timeIntervalSince(started)
            summary.totalItems = total ?? summary.items
            return summary
        }
    }
}

extension SyncOptions {
    /// The options with the URL's user name and password moved to `Authorization`, out of every URL.
    var withCredentialsAsField: SyncOptions {
        var options = self
        options.url = URLCredentials.moving(from: url, into: &options.headerFields)
        return options
    }
}
