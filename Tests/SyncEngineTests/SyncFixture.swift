import Composition
import Foundation
import HTTPCache
import JSON
import MirrorStore
import Pacing
@testable import MockServer
import Storage
import SyncEngine
import Synchronization

/// A temporary data directory and the real services over it (libcurl, the cache and item
/// databases), removed at the end.
final class SyncFixture: Sendable {
    let directory: String
    let services: FreshServices
    let store: SQLiteMirror
    /// The waits retries asked for (the fixture's sync does not really sleep).
    let waits = WaitLog()

    /// - Parameters:
    ///   - realTime: waits really wait (the server's clock is what a test judges); else they
    ///     are recorded in ``waits`` and return at once.
    ///   - speedUps: the speed-ups the syncs use (none: the plain path).
    init(realTime: Bool = false, speedUps: SpeedUps = .all) throws {
        directory = NSTemporaryDirectory() + "fresh-sync-tests-" + UUID().uuidString
        services = FreshServices(location: StorageLocation(directory: directory), clock: realTime ? .system : waits.clock, speedUps: speedUps)
        store = try SQLiteMirror(path: services.location.itemDatabasePath)
    }

    /// A sync whose waits (retries' backoffs, the origin gate's holds) are the fixture's clock's.
    var engine: CollectionSync {
        CollectionSync(network: services, store: store, random: { 0.5 })
    }

    func sync(_ url: String, _ configure: (inout SyncOptions) -> Void = { _ in }) async throws -> SyncSummary {
        var options = SyncOptions(url: URL(string: url)!)
        configure(&options)
        return try await engine.run(options)
    }

    /// The stored items of a collection, as (key, JSON).
    func items(_ name: String) throws -> [StoredItem] {
        guard let collection = try store.collection(named: name) else { return [] }
        var items: [StoredItem] = []
        try store.forEachItem(in: collection.id) { items.append($0) }
        return items
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The waits a sync asked for, on a clock of its own that each wait moves on at once.
final class WaitLog: Sendable {
    private let waits = Mutex<[Duration]>([])
    private let now = Mutex(ContinuousClock.now)

    var clock: PacingClock {
        PacingClock(now: { [self] in now.withLock { $0 } }, sleep: { [self] wait in
            waits.withLock { $0.append(wait) }
            now.withLock { $0 += wait }
        })
    }

    func withLock<T>(_ body: ([Duration]) -> T) -> T { waits.withLock { body($0) } }
}
