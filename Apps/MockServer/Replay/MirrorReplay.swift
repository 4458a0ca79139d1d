import Foundation
import HTTPFields
import HTTPTypes
import JSON
import MirrorStore
import Synchronization

/// `fresh-mock --mirror`: serves the pages `fresh sync` stored, as the client saw them, read from
/// the mirror's store (``MirrorReading``, the interface the reader and the read-outs use) one page
/// at a time, so a mirror of any size answers its first page at once.
///
/// A request is matched to a stored page by its path and query (on the collection's origin,
/// the parameters in any order); the page is its envelope (``PageEnvelope``) around the stored
/// items, with the origin's URLs pointing here, and the origin's validators (or a strong entity
/// tag of what is stored). A request no page answers is a miss: a 404 naming the nearest
/// recorded URL, kept in ``misses``. With ``MirrorSource/repaging``, the stored items are served in
/// one of fresh-mock's styles instead.
final class MirrorReplay: Sendable {
    /// How often, at most, a request asks the store whether it changed (a sync adding pages).
    static let changeCheckInterval = Duration.milliseconds(100)

    let source: MirrorSource
    let validators: Validators
    /// What no recorded page answered.
    let misses = MissLog()
    private let watch: any ChangeWatch
    private let state: Mutex<State>

    private struct State {
        /// The collections served, and the origin (`http://host:port`) of each.
        var served: [CollectionRecord]
        var lastCheck: ContinuousClock.Instant
        /// Built pages by origin, path and query, up to ``MockStore/defaultByteBudget`` bytes.
        var kept: [String: Representation] = [:]
        var keptBytes = 0
        /// Each collection's page URLs as targets, read when a request matched none exactly.
        var targets: [Int64: [(url: String, target: RequestTarget)]] = [:]
        /// Re-paged collections, read whole on their first request.
        var repaged: [Int64: ItemCollection] = [:]
    }

    /// The replay of `source`; its collections are read now.
    /// - Throws: ``MockServerError/noSuchCollection(_:)`` for a name the mirror does not hold.
    init(source: MirrorSource, validators: Validators) async throws {
        self.source = source
        self.validators = validators
        do {
            self.watch = try await source.store.watchChanges()
            self.state = Mutex(State(served: try await Self.collections(of: source), lastCheck: .now))
        } catch let error as MockServerError {
            throw error
        } catch {
            throw MockServerError.cannotOpenMirror("\(error)")
        }
    }

    /// The paths of the served collections' first pages: the templates fault rules name.
    var collectionPaths: [String] {
        state.withLock { $0.served.map { RequestTarget(url: $0.url)?.path ?? "/" } }
    }

    private static func collections(of source: MirrorSource) async throws -> [CollectionRecord] {
        let all = try await source.store.collections()
        guard !all.isEmpty else { throw MockServerError.cannotOpenMirror("the mirror holds no collection: sync one first (fresh sync URL)") }
        guard !source.names.isEmpty else { return all }
        return try source.names.map { name in
            guard let found = all.first(where: { $0.name == name }) else {
                throw MockServerError.noSuchCollection("the mirror holds no collection '\(name)'; it holds: "
                                                       + (all.isEmpty ? "none" : all.map(\.name).joined(separator: ", ")))
            }
            return found
        }
    }

    // MARK: Answering

    /// The page `request` names, a 304 for it, or a miss.
    func respond(to request: APIRequest) async throws(APIError) -> Reply {
        await forgetIfChanged()
        let key = request.origin + request.path + "?" + (request.rawQuery ?? "")
        if let kept = state.withLock({ $0.kept[key] }) { return validators.reply(to: request.headers, with: kept) }
        let representation: Representation
        do {
            representation = try await build(request)
        } catch .notRecorded(let message, let nearest, let differences) {
            // A sync may have written since the last look: what it added may answer the request.
            guard await forgetIfChanged(now: true) else { throw missed(request, message, nearest, differences) }
            do {
                representation = try await build(request)
            } catch .notRecorded(let message, let nearest, let differences) {
                throw missed(request, message, nearest, differences)
            }
        }
        state.withLock { state in
            if state.keptBytes + representation.byteCount > MockStore.defaultByteBudget { (state.kept, state.keptBytes) = ([:], 0) }
            state.keptBytes += representation.byteCount - (state.kept.updateValue(representation, forKey: key)?.byteCount ?? 0)
        }
        return validators.reply(to: request.headers, with: representation)
    }

    /// Keeps a miss of `request` (as the URL on the origin of its nearest recorded page) and returns it as the error.
    private func missed(_ request: APIRequest, _ message: String, _ nearest: String?, _ differences: [String]) -> APIError {
        let origin = ReplayedPage.origin(of: nearest ?? state.withLock { $0.served.first?.url } ?? "")
        misses.record(origin + request.path + (request.rawQuery.map { "?" + $0 } ?? ""))
        return .notRecorded(message: message, nearest: nearest, differences: differences)
    }

    private func build(_ request: APIRequest) async throws(APIError) -> Representation {
        do {
            if let repaging = source.repaging { return try await repaged(request, style: repaging.style, pageSize: repaging.pageSize) }
            let (page, collection) = try await recordedPage(for: request)
            let items = try await source.store.itemJSON(onPage: page.record.pageIndex, of: page.record.collectionID)
            return ReplayedPage(page, plan: collection.plan, items: items, replayOrigin: request.origin).representation
        } catch let error as APIError {
            throw error
        } catch {
            throw .mirrorUnavailable("\(error)")
        }
    }

    /// Forgets what was built from the store when a sync (or anyone) wrote to it since the last
    /// look, which is taken at most every ``changeCheckInterval``, or `now`; returns whether it did.
    @discardableResult
    private func forgetIfChanged(now: Bool = false) async -> Bool {
        let due = state.withLock { state in
            guard now || ContinuousClock.now - state.lastCheck >= Self.changeCheckInterval else { return false }
            state.lastCheck = .now
            return true
        }
        guard due, (try? watch.hasChanged()) != false, let served = try? await Self.collections(of: source) else { return false }
        state.withLock { state in state = State(served: served, lastCheck: .now) }
        return true
    }

    // MARK: Recorded pages

    /// The stored page `request` names, and its collection.
    /// - Throws: ``APIError/notRecorded(message:nearest:differences:)`` when none does (the miss is kept).
    private func recordedPage(for request: APIRequest) async throws -> (RecordedPage, CollectionRecord) {
        let served = state.withLock { $0.served }
        let suffix = request.path + (request.rawQuery.map { "?" + $0 } ?? "")
        // The usual request is the URL the sync fetched, on the origin: one indexed look-up.
        for origin in Set(served.map { ReplayedPage.origin(of: $0.url) }).sorted() {
            if let found = try await page(at: origin + suffix, in: served) { return found }
        }
        // Else the same parameters in another order or encoding, or a miss.
        let target = RequestTarget(path: request.path, query: request.rawQuery)
        var nearest: (url: String, target: RequestTarget, distance: Int)?
        for collection in served {
            for (url, recorded) in try await targets(of: collection) {
                if recorded == target, let found = try await page(at: url, in: served) { return found }
                let distance = target.distance(to: recorded)
                if distance < nearest?.distance ?? .max { nearest = (url, recorded, distance) }
            }
        }
        throw APIError.notRecorded(message: "the mirror recorded no page at \(suffix)", nearest: nearest?.url,
                                   differences: nearest.map { target.differences(from: $0.target) } ?? [])
    }

    private func page(at url: String, in served: [CollectionRecord]) async throws -> (RecordedPage, CollectionRecord)? {
        for page in try await source.store.recordedPages(at: url) {
            if let collection = served.first(where: { $0.id == page.record.collectionID }) { return (page, collection) }
        }
        return nil
    }

    private func targets(of collection: CollectionRecord) async throws -> [(url: String, target: RequestTarget)] {
        if let known = state.withLock({ $0.targets[collection.id] }) { return known }
        let targets = try await source.store.pageURLs(of: collection.id).compactMap { url in RequestTarget(url: url).map { (url, $0) } }
        state.withLock { $0.targets[collection.id] = targets }
        return targets
    }

    // MARK: Re-paged

    /// The page `request` asks for of the collection at its path, in `style`.
    private func repaged(_ request: APIRequest, style: MockPaginationStyle, pageSize: Int?) async throws -> Representation {
        let target = RequestTarget(path: request.path, query: nil)
        let served = state.withLock { $0.served }
        guard let collection = served.first(where: { RequestTarget(url: $0.url)?.path == target.path }) else {
            throw APIError.notRecorded(message: "no mirrored collection is at \(request.path)", nearest: served.first?.url,
                                       differences: served.first.flatMap { RequestTarget(url: $0.url) }.map { target.differences(from: $0) } ?? [])
        }
        let items = try await repagedItems(of: collection)
        let query = try PageQuery(style.paging, query: request.query, keyKind: items.keyKind, pageSize: pageSize)
        let origin = style.carriesURLs ? request.origin : ""
        let content = try PageRenderer(style: style, collection: items, path: target.path, origin: origin).render(query)
        return Representation(content, lastModified: items.baseline)
    }

    private func repagedItems(of collection: CollectionRecord) async throws -> ItemCollection {
        if let known = state.withLock({ $0.repaged[collection.id] }) { return known }
        let changed = Date(timeIntervalSince1970: collection.lastCompleteAt ?? collection.createdAt)
        var items: [MockItem] = []
        try await source.store.forEachItem(in: collection.id) { item in
            items.append(MockItem(key: item.key, json: Data(item.json.utf8), updatedAt: changed))
        }
        let keyKind: ItemCollection.KeyKind = items.allSatisfy { $0.key.kind == .integer } ? .integer : .string
        let listed = ItemCollection(name: collection.name, keyKind: keyKind, listed: items, baseline: changed.inWholeSeconds)
        state.withLock { $0.repaged[collection.id] = listed }
        return listed
    }
}

/// What `--mirror` serves: a store's collections (all, or those named), as recorded or re-paged.
public struct MirrorSource: Sendable {
    public var store: any MirrorReading
    /// The collections served; empty: every one.
    public var names: [String]
    /// `--style` (and `--limit`, the page size a request that names none gets): the stored items
    /// in one of fresh-mock's styles, instead of the recorded pages.
    public var repaging: (style: MockPaginationStyle, pageSize: Int?)?

    public init(store: any MirrorReading, names: [String] = [], repaging: (style: MockPaginationStyle, pageSize: Int?)? = nil) {
        self.store = store
        self.names = names
        self.repaging = repaging
    }
}
