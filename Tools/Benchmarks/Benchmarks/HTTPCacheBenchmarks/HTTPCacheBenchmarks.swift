import Benchmark
import CurlTransport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCache
import HTTPFields
import HTTPTypes
import MockServer
import Storage

// Benchmark names are ids; Tools/Benchmarks/report.py gives each its description and target.
//
// The HTTP cache measured side by side with Foundation's URLSession / URLCache: hits in batches
// of 1000 per sample (and one per sample, as `.isolated` rows), everything else one operation per
// sample. Tools/bench-cache.sh runs this suite together with hishel (python) and writes the
// table in docs/performance.md.
//
// Network cases talk to fresh-mock over loopback with kept-alive connections. The runner starts a
// release fresh-mock with `--max-age 0` and passes its base URL in FRESH_BENCH_REVALIDATE_URL;
// without it the suite starts one in-process (port 0) and stops it at the end.

/// The two times of each `fresh.revalidationPair` sample, in nanoseconds; report.py shows them
/// as the rows `fresh.revalidate304` and `fresh.plainGET`.
let revalidationMetric = BenchmarkMetric.custom("revalidate304", useScalingFactor: false)
let plainGETMetric = BenchmarkMetric.custom("plainGET", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    // Wall clock and mallocs per operation; `batch` operations run back to back in each sample and
    // the figures are divided by it.
    func perOperation(warmup: Int, seconds: Int, samples: Int, batch: BenchmarkScalingFactor = .one)
        -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: warmup,
            scalingFactor: batch, maxDuration: .seconds(seconds), maxIterations: samples)
    }
    let timing = perOperation(warmup: 200, seconds: 3, samples: 200_000)
    let network = perOperation(warmup: 100, seconds: 4, samples: 20_000)

    // Hits are judged on batches of 1000. ordo-one starts every sample of an async benchmark in a
    // new Task from a global dispatch queue while its own thread waits on a semaphore, so on a
    // two-core machine consecutive samples often run on different cores, and a lone hit of a few
    // microseconds starts with that core's caches cold. A batch times the hit itself; the
    // `.isolated` rows keep one hit per sample, cold caches included. URLSession's cache path is
    // timed both ways too.
    let hitBatches = perOperation(warmup: 3, seconds: 3, samples: 2_000, batch: .kilo)
    let urlSessionBatches = perOperation(warmup: 2, seconds: 6, samples: 2_000, batch: .kilo)

    Benchmark.setup = { try await Fixture.shared.start() }
    Benchmark.teardown = { await Fixture.shared.stop() }

    // MARK: Fresh hits

    let hits: [(String, @Sendable (Fixture) -> (CachingClient, URL))] = [
        ("fresh.memoryHit.1KB", { ($0.memoryClient, $0.memoryURL) }),
        ("fresh.sqliteHit.1KB", { ($0.sqliteClient, $0.sqliteURL1K) }),
        ("fresh.sqliteHit.100KB", { ($0.sqliteClient, $0.sqliteURL100K) }),
    ]
    for (name, target) in hits {
        for (suffix, configuration) in [("", hitBatches), (".isolated", timing)] {
            Benchmark(name + suffix, configuration: configuration) { benchmark in
                let (client, url) = target(Fixture.shared)
                let request = TransportRequest(method: .get, url: url)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try await client.send(request))
                }
                benchmark.stopMeasurement()
            }
        }
    }

    // MARK: Storing

    Benchmark("fresh.store.100KB", configuration: timing) { benchmark in
        let fixture = Fixture.shared
        let entry = fixture.nextStoreEntry()
        benchmark.startMeasurement()
        try fixture.storeDatabase.store(entry)
        benchmark.stopMeasurement()
    }

    // MARK: Over the network (loopback, kept-alive)

    // The 304 and the plain GET are timed in the same samples: every sample sends both, in an
    // order that alternates from one sample to the next, and records each one's time as a metric
    // of its own. Both rows then come from the same seconds, traffic, server state and noise.
    var pairConfiguration = network
    pairConfiguration.metrics = [revalidationMetric, plainGETMetric]
    Benchmark("fresh.revalidationPair", configuration: pairConfiguration) { benchmark in
        let fixture = Fixture.shared
        let request = TransportRequest(method: .get, url: fixture.networkURL)
        var outcome: CacheDecision.Outcome = .bypassed
        let revalidation = { outcome = try await fixture.revalidatingClient.send(request).decision.outcome }
        let plainGET = { blackHole(try await fixture.plainTransport.send(request).status) }
        let pair = fixture.nextPairOrder() ? [(revalidationMetric, revalidation), (plainGETMetric, plainGET)]
                                           : [(plainGETMetric, plainGET), (revalidationMetric, revalidation)]
        for (metric, send) in pair {
            let start = DispatchTime.now().uptimeNanoseconds
            try await send()
            benchmark.measurement(metric, Int(DispatchTime.now().uptimeNanoseconds - start))
        }
        if outcome != .revalidated { benchmark.error("expected a 304 revalidation, got \(outcome)") }
    }

    Benchmark("urlsession.uncachedGET", configuration: network) { benchmark in
        let fixture = Fixture.shared
        var request = URLRequest(url: fixture.networkURL)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        benchmark.startMeasurement()
        let (data, _) = try await fixture.uncachedSession.data(for: request)
        benchmark.stopMeasurement()
        blackHole(data)
    }

    // MARK: URLCache with a hand-stored entry (Linux URLSession never stores on its own)

    // The same entries behind a session whose URLCache keeps them in memory (the judged peer,
    // timed in batches like fresh's hits and one per sample), and behind one whose URLCache has no
    // memory tier and reads them from its disk store (about 23 ms a hit at 100 KB: one per sample).
    let urlSessionHits: [(String, URL, Int, Benchmark.Configuration, @Sendable (Fixture) -> URLSession)] = [
        ("urlsession.returnCacheDataDontLoad.1KB", Fixture.urlCacheURL, Fixture.smallBodySize, urlSessionBatches, { $0.cachedSession }),
        ("urlsession.returnCacheDataDontLoad.100KB", Fixture.urlCacheURL100K, Fixture.largeBodySize, urlSessionBatches, { $0.cachedSession }),
        ("urlsession.returnCacheDataDontLoad.1KB.isolated", Fixture.urlCacheURL, Fixture.smallBodySize, network, { $0.cachedSession }),
        ("urlsession.returnCacheDataDontLoad.100KB.isolated", Fixture.urlCacheURL100K, Fixture.largeBodySize, network, { $0.cachedSession }),
        ("urlsession.returnCacheDataDontLoad.disk.1KB", Fixture.urlCacheURL, Fixture.smallBodySize, network, { $0.diskCachedSession }),
        ("urlsession.returnCacheDataDontLoad.disk.100KB", Fixture.urlCacheURL100K, Fixture.largeBodySize, network, { $0.diskCachedSession }),
    ]
    for (name, url, size, configuration, session) in urlSessionHits {
        Benchmark(name, configuration: configuration) { benchmark in
            var request = URLRequest(url: url)
            request.cachePolicy = .returnCacheDataDontLoad
            let session = session(Fixture.shared)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let (data, _) = try await session.data(for: request)
                guard data.count == size else {
                    benchmark.error("URLSession did not answer from the hand-stored entry (\(data.count) bytes)")
                    return
                }
            }
            benchmark.stopMeasurement()
        }
    }

    let urlCaches: [(String, @Sendable (Fixture) -> URLCache)] = [
        ("urlcache.cachedResponse.memory.1KB", { $0.memoryURLCache }),
        ("urlcache.cachedResponse.disk.1KB", { $0.diskURLCache }),
    ]
    for (name, cache) in urlCaches {
        Benchmark(name, configuration: timing) { benchmark in
            let fixture = Fixture.shared
            let urlCache = cache(fixture)
            benchmark.startMeasurement()
            let cached = urlCache.cachedResponse(for: fixture.urlCacheRequest)
            benchmark.stopMeasurement()
            guard cached?.data.count == Fixture.smallBodySize else {
                benchmark.error("URLCache lost the hand-stored entry (\(name))")
                return
            }
        }
    }
}

// MARK: - Fixture

/// Everything the benchmarks share: temporary databases, clients, URL caches and the server.
/// Built once in `Benchmark.setup`, read-only afterwards (hence `@unchecked Sendable`).
final class Fixture: @unchecked Sendable {
    static let shared = Fixture()
    static let smallBodySize = 1024
    static let largeBodySize = 100 * 1024

    private(set) var directory = URL(fileURLWithPath: "/")
    private(set) var server: RunningMockServer?

    private(set) var memoryClient: CachingClient!
    private(set) var sqliteClient: CachingClient!
    private(set) var revalidatingClient: CachingClient!
    private(set) var plainTransport: CurlTransport!
    private(set) var storeDatabase: CacheDatabase!
    private var databases: [CacheDatabase] = []
    private var storeURLs: [URL] = []
    private var storeBodies: [Data] = []
    private var storeIndex = 0

    let memoryURL = URL(string: "https://api.example.com/posts/1")!
    let sqliteURL1K = URL(string: "https://api.example.com/posts/2")!
    let sqliteURL100K = URL(string: "https://api.example.com/exercises")!
    private(set) var networkURL = URL(string: "http://127.0.0.1/")!

    static let urlCacheURL = URL(string: "https://api.example.com/posts/3")!
    static let urlCacheURL100K = URL(string: "https://api.example.com/exercises/3")!
    var urlCacheRequest: URLRequest { URLRequest(url: Self.urlCacheURL) }
    private(set) var uncachedSession: URLSession!
    private(set) var cachedSession: URLSession!
    private(set) var diskCachedSession: URLSession!
    private(set) var memoryURLCache: URLCache!
    private(set) var diskURLCache: URLCache!

    func start() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-bench-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        // (a) memory tier in front of SQLite, warm.
        let memoryDatabase = try openDatabase("memory-tier.sqlite")
        let tiered = TieredCacheStorage(memory: MemoryCacheStorage(), backing: memoryDatabase)
        try tiered.store(Self.entry(url: memoryURL, bodySize: Self.smallBodySize))
        memoryClient = CachingClient(transport: OfflineTransport(), storage: tiered)

        // (b) SQLite alone: every lookup reads the database (no memory tier at all).
        let sqliteDatabase = try openDatabase("sqlite-only.sqlite")
        try sqliteDatabase.store(Self.entry(url: sqliteURL1K, bodySize: Self.smallBodySize))
        try sqliteDatabase.store(Self.entry(url: sqliteURL100K, bodySize: Self.largeBodySize))
        sqliteClient = CachingClient(transport: OfflineTransport(), storage: sqliteDatabase)

        for (client, url) in [(memoryClient!, memoryURL), (sqliteClient!, sqliteURL1K), (sqliteClient!, sqliteURL100K)] {
            let outcome = try await client.send(TransportRequest(method: .get, url: url)).decision.outcome
            guard outcome == .freshHit else { throw BenchmarkSetupError("\(url) was not a fresh hit: \(outcome)") }
        }

        // (c) stores rotate over 64 keys, so each one replaces an older row as a steady cache does,
        // and over 65 bodies of 100 KB to 104 KB, so each replacement writes a body of another size
        // and other bytes than the one it replaces.
        storeDatabase = try openDatabase("store.sqlite")
        storeURLs = (0..<64).map { URL(string: "https://api.example.com/blob/\($0)")! }
        storeBodies = (0..<65).map { seed in Self.body(size: Self.largeBodySize + seed * 64, seed: seed) }

        // (d) (e) (f) the network cases share one fresh-mock with max-age=0.
        if let external = ProcessInfo.processInfo.environment["FRESH_BENCH_REVALIDATE_URL"], !external.isEmpty {
            networkURL = URL(string: external)!
        } else {
            var configuration = MockServerConfiguration.defaults
            configuration.maxAge = 0
            let running = try await RunningMockServer.start(configuration)
            server = running
            networkURL = URL(string: running.baseURL + "/posts/1")!
        }
        let revalidationDatabase = try openDatabase("revalidation.sqlite")
        revalidatingClient = CachingClient(
            transport: CurlTransport(),
            storage: TieredCacheStorage(memory: MemoryCacheStorage(), backing: revalidationDatabase))
        let first = try await revalidatingClient.send(TransportRequest(method: .get, url: networkURL))
        guard first.decision.stored, first.headerFields[.eTag] != nil else {
            throw BenchmarkSetupError("\(networkURL) was not stored with an ETag: \(first.decision)")
        }
        plainTransport = CurlTransport()

        let uncached = URLSessionConfiguration.ephemeral
        uncached.urlCache = nil
        uncached.requestCachePolicy = .reloadIgnoringLocalCacheData
        uncachedSession = URLSession(configuration: uncached)

        // (g) URLCache: an entry stored by hand, since URLSession on Linux stores nothing itself.
        memoryURLCache = URLCache(memoryCapacity: 16 * 1024 * 1024, diskCapacity: 0, diskPath: nil)
        diskURLCache = URLCache(memoryCapacity: 0, diskCapacity: 64 * 1024 * 1024,
                                diskPath: directory.appendingPathComponent("urlcache", isDirectory: true).path)
        for (url, size) in [(Self.urlCacheURL, Self.smallBodySize), (Self.urlCacheURL100K, Self.largeBodySize)] {
            let body = Data(repeating: UInt8(ascii: "x"), count: size)
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [
                "Content-Type": "application/json", "Content-Length": "\(body.count)",
                "Cache-Control": "max-age=3600", "ETag": "\"bench\"", "Date": HTTPDate.format(Date()),
            ])!
            for cache in [memoryURLCache!, diskURLCache!] {
                cache.storeCachedResponse(CachedURLResponse(response: response, data: body), for: URLRequest(url: url))
            }
        }
        let cachedConfiguration = URLSessionConfiguration.default
        cachedConfiguration.urlCache = memoryURLCache
        cachedSession = URLSession(configuration: cachedConfiguration)
        let diskCachedConfiguration = URLSessionConfiguration.default
        diskCachedConfiguration.urlCache = diskURLCache
        diskCachedSession = URLSession(configuration: diskCachedConfiguration)
    }

    func stop() async {
        for database in databases { try? database.flush() }
        databases.removeAll()
        uncachedSession?.invalidateAndCancel()
        cachedSession?.invalidateAndCancel()
        diskCachedSession?.invalidateAndCancel()
        await server?.stop()
        server = nil
        try? FileManager.default.removeItem(at: directory)
    }

    private var pairSamples = 0

    /// Whether this sample of `fresh.revalidationPair` sends the 304 first: every other one.
    func nextPairOrder() -> Bool {
        pairSamples += 1
        return pairSamples.isMultiple(of: 2)
    }

    func nextStoreEntry() -> StoredResponse {
        storeIndex += 1
        return Self.entry(url: storeURLs[storeIndex % storeURLs.count], body: storeBodies[storeIndex % storeBodies.count])
    }

    private func openDatabase(_ name: String) throws -> CacheDatabase {
        let database = try CacheDatabase(path: directory.appendingPathComponent(name).path)
        databases.append(database)
        return database
    }

    /// `size` letters of the alphabet, starting `seed` letters in: bodies of consecutive
    /// seeds differ in every byte.
    static func body(size: Int, seed: Int = 0) -> Data {
        Data((0..<size).map { UInt8(ascii: "a") + UInt8(($0 + seed) % 26) })
    }

    /// A 200 response fresh for an hour, with validators, as fresh-mock would send it.
    static func entry(url: URL, bodySize: Int) -> StoredResponse {
        entry(url: url, body: body(size: bodySize))
    }

    static func entry(url: URL, body: Data) -> StoredResponse {
        let now = Date()
        let fields: HTTPFields = [
            .contentType: "application/json",
            .contentLength: "\(body.count)",
            .cacheControl: "max-age=3600",
            .eTag: "\"\(body.count)-bench\"",
            .lastModified: HTTPDate.format(now.addingTimeInterval(-86_400)),
            .date: HTTPDate.format(now),
        ]
        return StoredResponse(
            key: CacheKey.primary(method: .get, url: url), variantKey: "", url: url, method: .get, status: .ok,
            headerFields: fields, body: body, requestTime: now, responseTime: now)
    }
}

/// The transport of the pure-hit benchmarks: any request reaching it is a bug in the benchmark.
struct OfflineTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw TransportError.unreachable("benchmark hit cases must not touch the network")
    }
}

struct BenchmarkSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
