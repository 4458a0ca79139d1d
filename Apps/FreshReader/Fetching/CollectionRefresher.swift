import Composition
import Fetcher
import Foundation
import MirrorStore
import NamedSources
import StorageErrors
import Synchronization
import SyncEngine

/// `r`: the Fetcher pattern over one collection. The stored collection is shown at once; the
/// refresh syncs it behind the screen, the pages on screen first; the Fetcher's states and the
/// sync's summary go to the UI. Presses while a refresh runs join it (single-flight).
///
/// A server that cannot be reached at all (refused, no such host) is "offline" at once, not
/// after the retries a sync would make; the refresh is tried again ``offlineRetry`` later, in
/// the background, until it succeeds or the user leaves.
final class CollectionRefresher: Sendable {
    /// How long after an offline refresh it is tried again.
    static let offlineRetry = Duration.seconds(30)

    private let services: FreshServices
    private let store: any SyncStore
    private let work: BackgroundWork
    private let report: @Sendable (Int64, FetchState<CollectionEntry>.Status, String?) -> Void
    private let fetchers = Mutex<[Int64: Fetcher<CollectionEntry>]>([:])
    private let firstPages = Mutex<[Int64: [Int]]>([:])
    private let summaries = Mutex<[Int64: String]>([:])
    /// Collections with a retry after going offline already waiting.
    private let retrying = Mutex<Set<Int64>>([])

    init(services: FreshServices, store: any SyncStore, work: BackgroundWork,
         report: @escaping @Sendable (Int64, FetchState<CollectionEntry>.Status, String?) -> Void) {
        self.services = services
        self.store = store
        self.work = work
        self.report = report
    }

    /// Refreshes collection `id`, `pages` first; joins the refresh already running.
    func refresh(_ id: Int64, firstPages pages: [Int]) {
        firstPages.withLock { $0[id] = pages }
        work.track(fetcher(for: id).startRefresh())
    }

    private func fetcher(for id: Int64) -> Fetcher<CollectionEntry> {
        fetchers.withLock { fetchers in
            if let fetcher = fetchers[id] { return fetcher }
            let fetcher = makeFetcher(id)
            fetchers[id] = fetcher
            // Subscribed before the refresh starts, so no state it publishes is missed.
            let states = fetcher.states()
            Task { [self] in
                for await state in states.dropFirst() {
                    let summary = state.status == .loading ? nil : summaries.withLock { $0.removeValue(forKey: id) }
                    self.report(id, state.status, summary)
                    if case .failed(let failure) = state.status, failure.isOffline { retryLater(id) }
                }
            }
            return fetcher
        }
    }

    /// Refreshes collection `id` again ``offlineRetry`` from now, once however often it failed.
    private func retryLater(_ id: Int64) {
        guard retrying.withLock({ $0.insert(id).inserted }) else { return }
        work.track(Task { [self] in
            defer { retrying.withLock { _ = $0.remove(id) } }
            guard (try? await Task.sleep(for: Self.offlineRetry)) != nil else { return }
            refresh(id, firstPages: firstPages.withLock { $0[id] ?? [] })
        })
    }

    private func makeFetcher(_ id: Int64) -> Fetcher<CollectionEntry> {
        Fetcher(
            readLocal: { [store] in
                guard let record = try await store.collection(id: id) else { throw StorageError.failed("the collection was deleted") }
                return CollectionEntry(record, itemCount: try await store.itemCount(in: id))
            },
            refreshRemote: { [self] in
                guard let record = try await store.collection(id: id) else {
                    throw FetchFailure(message: "the collection was deleted", isOffline: false)
                }
                var options = try SourcesFile.located().syncOptions(for: record)
                // Someone who presses "refresh" wants the server's answer (conditionally: a 304
                // for an unchanged page), and "offline" when it cannot be reached.
                options.policy = .reloadRevalidatingCacheData
                options.timeout = .seconds(10)
                options.retry.retriesUnreachable = false
                options.firstPages = firstPages.withLock { $0[id] ?? [] }
                let summary = try await CollectionSync(network: services, store: store).run(options)
                summaries.withLock { $0[id] = Self.changes(summary) }
            },
            classify: Self.failure)
    }

    /// Why a refresh failed, as the status line says it: a refusal (401, 403) with a hint
    /// about the source's credentials, never as "offline".
    static func failure(_ error: any Error) -> FetchFailure {
        if let failure = error as? FetchFailure { return failure }
        if case SyncError.httpStatus(let code, _, _) = error, code == 401 || code == 403 {
            return FetchFailure(message: "the server refused the request (\(code) \(code == 401 ? "Unauthorized" : "Forbidden")): "
                + "check the source's credentials with 'fresh source show NAME'", isOffline: false)
        }
        let offline = ErrorDescription.isOffline(error)
        return FetchFailure(message: ErrorDescription.line(error) + (offline ? "; trying again in \(offlineRetry.formattedSeconds)" : ""),
                            isOffline: offline)
    }

    /// What a refresh changed, as the status line says it: "3 new, 1 updated, 2 removed · 48 × 304".
    static func changes(_ summary: SyncSummary) -> String {
        "\(summary.created) new, \(summary.changed) updated, \(summary.removed) removed · \(summary.notModified) × 304"
    }
}
