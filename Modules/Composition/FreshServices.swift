import CurlTransport
import Foundation
import HTTPCache
import Pacing
import Storage
import SyncEngine

/// The composition root the programs use: the cache database with its memory tier, the
/// libcurl transport behind the origin gate, the caching client over them, and what a sync
/// needs of the network (``SyncNetwork``). The mirror is chosen here too (``MirrorChoice``).
/// Only the programs import this module: the sync logic sees the protocols it is given.
public final class FreshServices: SyncNetwork {
    /// The version of `fresh` and `fresh-reader` (`--version`), and of their `User-Agent`.
    public static let version = "0.2.0"
    /// The `User-Agent` of every request unless the user sets one.
    public static let userAgent = "fresh/\(version)"
    /// Requests in flight at once to an origin that states no limit, unless `--parallel` says
    /// otherwise: a re-sync's chain lookahead keeps this many 304s in flight (see `SyncPass`).
    public static let parallel = 8

    public let location: StorageLocation
    /// The cache file, or `nil` when it could not be opened nor rebuilt: this run then caches in
    /// memory only (the cache is disposable; a request still works without it).
    public let cacheDatabase: CacheDatabase?
    /// Why there is no ``cacheDatabase``. A command that only reads stored data (`--offline`,
    /// `fresh explain`) fails with it rather than report an empty memory cache.
    public let cacheFailure: (any Error)?
    public let client: CachingClient
    /// The client a sync fetches pages with: the same cache and network, storing the pages'
    /// validators without their bodies (see ``PageValidatorStorage``).
    public let pageClient: CachingClient
    private let pageStorage: PageValidatorStorage
    /// The network as given, before the gate: what a page chain drives.
    private let transport: CurlTransport
    public let gate: OriginGate
    public let clock: PacingClock
    /// What the user should hear about: a rebuilt cache database, or one that cannot be used.
    public let warnings: [String]
    /// The speed-ups in use: `FRESH_SPEEDUPS`'s, unless the caller says (see ``SpeedUps``).
    public let speedUps: SpeedUps
    /// The variable that turns speed-ups off (`none`: the plain path; see ``SpeedUps/configured(_:)``).
    static let speedUpsVariable = "FRESH_SPEEDUPS"

    /// Opens the cache database at `location`, rebuilding it if it is damaged, and falling back
    /// to a cache in memory (with a warning) when neither works.
    /// - Parameters:
    ///   - openedCache: the cache database, when the caller has opened it already.
    ///   - transport: the network, with the command's options (TLS, proxy, timeouts), behind the origin gate.
    ///   - parallel: requests in flight at once to an origin that states no limit (`--parallel`).
    ///   - clock: what waits wait on (tests pass one that moves on at once).
    ///   - speedUps: the speed-ups used; `nil`: those `FRESH_SPEEDUPS` names (all when unset).
    public init(location: StorageLocation, cacheCapacity: Int = CacheDatabase.defaultCapacity, openedCache: CacheDatabase? = nil,
                transport: CurlTransport = CurlTransport(userAgent: FreshServices.userAgent), parallel: Int = FreshServices.parallel,
                clock: PacingClock = .system, speedUps: SpeedUps? = nil) {
        self.location = location
        let configured = speedUps.map { (speedUps: $0, warning: String?.none) }
            ?? Self.speedUps(configured: ProcessInfo.processInfo.environment[Self.speedUpsVariable])
        self.speedUps = configured.speedUps
        let speedUpsWarning = configured.warning.map { [$0] } ?? []
        assert(openedCache.map { $0.path == location.cacheDatabasePath && $0.capacity == cacheCapacity } ?? true)
        let memory = MemoryCacheStorage(capacity: min(cacheCapacity, 8 * 1024 * 1024))
        let storage: any CacheStorage
        do {
            let database = try openedCache ?? CacheDatabase(path: location.cacheDatabasePath, capacity: cacheCapacity,
                                                            rawLookups: self.speedUps.contains(.rawCacheLookups))
            cacheDatabase = database
            cacheFailure = nil
            storage = TieredCacheStorage(memory: memory, backing: database)
            warnings = speedUpsWarning + (database.recoveryWarning.map { [$0] } ?? [])
        } catch {
            cacheDatabase = nil
            cacheFailure = error
            storage = memory
            warnings = speedUpsWarning + ["the HTTP cache cannot be used (\(ErrorDescription.line(error))); this run caches in memory only"]
        }
        let transport = transport.decoding(self.speedUps.contains(.libdeflate) ? .whole : .libcurl)
        self.transport = transport
        self.clock = clock
        gate = OriginGate(parallel: parallel, clock: clock)
        let paced = PacedTransport(transport, gate: gate)
        client = CachingClient(transport: paced, storage: storage)
        pageStorage = PageValidatorStorage(backing: (cacheDatabase as (any CacheStorage)?) ?? storage)
        pageClient = CachingClient(transport: paced, storage: pageStorage)
    }

    /// The speed-ups `FRESH_SPEEDUPS` names (`text`), and the warning for a value that names
    /// none it knows (every speed-up is then used).
    public static func speedUps(configured text: String?) -> (speedUps: SpeedUps, warning: String?) {
        if let chosen = SpeedUps.configured(text) { return (chosen, nil) }
        return (.all, "\(speedUpsVariable)='\(text ?? "")' names no speed-ups (none, all, or "
            + "\(SpeedUps.names.map(\.name).joined(separator: ", ")), each with a leading - to turn it off); all are used")
    }

    /// A pass's page requests on a thread that drives them (``TransferChain``): the page client,
    /// over the chain's transport behind the gate. Without ``SpeedUps/transferLoop`` (or libcurl),
    /// the page client sends as anywhere else, each request blocking a thread of its own.
    public func openPageChain(named name: String) -> PageChain {
        guard speedUps.contains(.transferLoop), let chain = transport.makeChain(name: name) else {
            return PageChain(client: pageClient, executor: nil)
        }
        return PageChain(client: pageClient.sending(through: PacedTransport(chain.transport, gate: gate)),
                         executor: chain.loop, end: { chain.loop.stop() })
    }

    public var pageValidators: any PageValidators { pageStorage }

    /// Waits for background revalidations, writes batched cache bookkeeping (use times,
    /// statistics, the refreshed headers of 304s) and settles the cache's WAL for the next
    /// process (``CacheDatabase/finish()``).
    public func finish() async {
        await client.waitForBackgroundRevalidations()
        await pageClient.waitForBackgroundRevalidations()
        pageStorage.drain()
        cacheDatabase?.finish()
    }

    /// Removes what the page client keeps for these page URLs (their validators), for a
    /// collection that is removed: a later sync of them then asks for each page whole at once,
    /// where a kept validator would bring a 304 first and the body only on a second request.
    public func forgetPages(_ urls: [URL]) {
        pageStorage.drain()
        for url in urls { try? pageStorage.removeAll(forKey: CacheKey.primary(method: .get, url: url)) }
    }

    /// How long the stored answer for page `url` stays fresh (its lifetime less its age, RFC
    /// 9111 §4.2), so a watch can sleep until a sync would ask the server again; `nil` when
    /// nothing is stored for it or it is stale already.
    public func freshness(ofPage url: URL, now: Date = Date()) -> Duration? {
        guard let entry = try? pageStorage.variants(forKey: CacheKey.primary(method: .get, url: url)).first else { return nil }
        let remaining = StoredResponseEvaluation(entry: entry, now: now).remaining
        return remaining > 0 ? .seconds(remaining) : nil
    }

    /// Runs `work`, then ``finish()`` whether it returned or threw: what a failed or interrupted
    /// run learned (a 304 before the failure, say) still reaches the cache file.
    public func finishing<Value>(_ work: () async throws -> Value) async throws -> Value {
        do {
            let value = try await work()
            await finish()
            return value
        } catch {
            await finish()
            throw error
        }
    }
}
