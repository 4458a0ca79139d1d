import Dispatch
import Foundation
import HTTPCache
import HTTPFields
import HTTPTypes
import Synchronization
import SyncEngine

/// The HTTP cache as a sync uses it: its pages' responses are stored with their validators
/// and freshness but without their bodies, which the mirror holds already (as items), so a
/// page's body is written once, and a 304 or a fresh hit costs nothing beyond the page's record.
///
/// The entries live under keys of their own (`sync GET …`), so `fresh get` never serves one.
/// Each keeps the body's length and digest (``OmittedBody``), so a fresh hit still tells which
/// content it stands for (``ContentValidator``).
///
/// Stores are written on a queue of their own, so the next page's request does not wait for
/// the cache file, in order and in batches (``batchSize``, or what came within ``batchDelay``):
/// a commit costs more than a page's entry. A lookup finds the entries not written yet too (a
/// catch-up or a second look asks pages of the same run again); ``drain()`` writes what waits
/// and waits for it.
///
/// For a page the cache has no entry for (a shared mirror, a cleared cache), ``remember(_:)``
/// makes the mirror's ETag stand in for one, so the page costs a 304, not a download.
public final class PageValidatorStorage: CacheStorage, PageValidators {
    private let backing: any CacheStorage
    /// How many entries wait before they are written. Entries are keyed by URL, and a listing's
    /// URLs (cursors, tokens) sort in no order of their own: each commit rewrites most leaves of
    /// the key's index, whatever the batch holds. A cold sync of 1,000 pages wrote 2.7 MB of
    /// cache log in batches of 64, 1.2 MB in batches of 256 (entries without bodies, in memory).
    static let batchSize = 256
    /// The longest an entry waits to be written.
    static let batchDelay = DispatchTimeInterval.milliseconds(100)

    private let writes = DispatchQueue(label: "fresh.page-validators")
    /// Stores not written yet (a write is scheduled whenever `pending` is not empty), and the
    /// batch being written: both answer lookups before the cache file has them.
    private let waiting = Mutex<(pending: [StoredResponse], writing: [StoredResponse])>(([], []))

    /// ETags the mirror keeps, by cache key, for pages the cache may not have (see ``remember(_:)``).
    private let mirrorTags = Mutex<[String: (url: URL, tag: String)]>([:])

    public init(backing: any CacheStorage) { self.backing = backing }

    /// Takes the ETags of the mirror's pages, to stand in for entries the cache lacks (a page
    /// stored by content digest has no ETag to ask with: it is downloaded).
    public func remember(_ tags: [PageETag]) {
        let byKey = tags.map { (CacheKey.primary(method: .get, url: $0.url), (url: $0.url, tag: $0.tag)) }
        mirrorTags.withLock { $0.merge(byKey) { _, new in new } }
    }

    public func forget(_ urls: [URL]) {
        let keys = urls.map { CacheKey.primary(method: .get, url: $0) }
        mirrorTags.withLock { tags in for key in keys { tags[key] = nil } }
    }

    /// An entry that holds only a validator the mirror keeps: stale at once (no freshness), so
    /// the cache revalidates it with `If-None-Match`, whatever the sync's credentials (the server
    /// answers for them: ``StoredResponse/anyVariant``).
    private func mirrorEntry(forKey key: String) -> StoredResponse? {
        guard let (url, tag) = mirrorTags.withLock({ $0[key] }) else { return nil }
        return StoredResponse(key: key, variantKey: StoredResponse.anyVariant, url: url, method: .get, status: .ok,
                              headerFields: [.eTag: tag], body: Data(), requestTime: .distantPast, responseTime: .distantPast)
    }

    deinit { writeWaiting() }

    /// Waits until every store so far is written.
    public func drain() { writes.sync { writeWaiting() } }

    /// The entries of `key`: those not written yet over the cache file's, so a page asked again in
    /// the same run (a catch-up, a second look) is asked with the validators just received.
    public func variants(forKey key: String) throws -> [StoredResponse] {
        let storedKey = Self.key(key)
        // Each list filtered on its own: only the (rare) matches are copied, on every page's lookup.
        let unwritten = waiting.withLock { $0.writing.filter { $0.key == storedKey } + $0.pending.filter { $0.key == storedKey } }
        var stored = try backing.variants(forKey: storedKey)
        for entry in unwritten {
            stored.removeAll { $0.variantKey == entry.variantKey }
            stored.append(entry)
        }
        stored = stored.map { entry in
            var entry = entry
            entry.key = key
            return entry
        }
        if stored.isEmpty, let entry = mirrorEntry(forKey: key) { return [entry] }
        return stored
    }

    public func store(_ entry: StoredResponse) throws {
        var stored = entry
        stored.key = Self.key(entry.key)
        if !entry.body.isEmpty || entry.omittedBody == nil {
            // An ETag identifies the content already (see ``ContentValidator``).
            stored.omittedBody = OmittedBody(length: entry.body.count,
                                             digest: entry.headerFields[.eTag] == nil ? FNV1a64.hex(entry.body) : nil)
        }
        stored.body = Data()
        let count = waiting.withLock { waiting in
            waiting.pending.append(stored)
            return waiting.pending.count
        }
        // Held weakly: a write still pending when the run ends (``drain()`` has written
        // everything by then) must not keep the cache file open past the end of the program.
        if count == 1 {
            writes.asyncAfter(deadline: .now() + Self.batchDelay) { [weak self] in self?.writeWaiting() }
        } else if count == Self.batchSize {
            writes.async { [weak self] in self?.writeWaiting() }
        }
    }

    private func writeWaiting() {
        let batch = waiting.withLock { waiting in
            (waiting.writing, waiting.pending) = (waiting.pending, [])
            return waiting.writing
        }
        guard !batch.isEmpty else { return }
        // Best effort, as every cache write: a failure costs a full download next time.
        try? backing.store(contentsOf: batch)
        waiting.withLock { $0.writing = [] }
    }

    public func refresh(_ entry: StoredResponse) throws {
        var stored = entry
        stored.key = Self.key(entry.key)
        stored.body = Data()
        try backing.refresh(stored)
    }

    public func removeAll(forKey key: String) throws { try backing.removeAll(forKey: Self.key(key)) }

    public func recordAccess(key: String, variantKey: String) {
        backing.recordAccess(key: Self.key(key), variantKey: variantKey)
    }

    public func recordOutcome(_ outcome: CacheOutcome) { backing.recordOutcome(outcome) }

    private static func key(_ key: String) -> String { "sync " + key }
}
