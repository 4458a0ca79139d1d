import Composition
import Fetcher
import Foundation
import MirrorStore
import Pacing
import Storage
import Synchronization
import SyncEngine
import Testing
@testable import FreshReader

@Suite("Reader: offline at once")
struct OfflineRefreshTests {
    /// A refused connection is "offline" on the first try: no sync retry (1 s, 2 s, 4 s…) is
    /// waited first, and the status says when the refresh is tried again.
    @Test func aRefusedConnectionIsOfflineAtOnceAndTriedAgainLater() async throws {
        let directory = NSTemporaryDirectory() + "fresh-reader-offline-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let waits = Mutex<[Duration]>([])
        let services = FreshServices(location: StorageLocation(directory: directory),
                                     clock: PacingClock(now: { .now }, sleep: { wait in waits.withLock { $0.append(wait) } }))
        let store = try SQLiteMirror(path: services.location.itemDatabasePath)
        // Port 1 on loopback: nothing listens, the connection is refused.
        let collection = try store.createCollection(preferredName: "items", url: "http://127.0.0.1:1/items")
        let work = BackgroundWork()
        let (states, reported) = AsyncStream<FetchState<CollectionEntry>.Status>.makeStream()
        let refresher = CollectionRefresher(services: services, store: store, work: work) { _, status, _ in reported.yield(status) }
        refresher.refresh(collection.id, firstPages: [])
        var failure: FetchFailure?
        for await status in states {
            if case .failed(let failed) = status { failure = failed; break }
        }
        #expect(failure?.isOffline == true)
        #expect(failure?.message.hasSuffix("trying again in 30 s") == true)
        #expect(waits.withLock { $0 }.isEmpty, "no retry was waited before saying offline")
        await work.stop()
    }
}
