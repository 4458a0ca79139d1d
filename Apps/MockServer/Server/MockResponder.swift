import Foundation
import HTTPTypes
import Hummingbird

/// The Hummingbird responder of the mock server: applies the rate limit and faults, dispatches
/// to the route handlers, turns every error into a JSON error response, and records statistics,
/// journal and request log.
struct MockResponder: HTTPResponder {
    typealias Context = MockRequestContext

    let routes: RouteTable
    let pages: PageRoutes
    let news: NewsRoutes
    let posts: PostsRoutes
    let collections: CollectionRoutes
    let documents: DocumentRoutes
    let admin: AdminRoutes
    /// `--mirror`: the mirror's pages.
    let replay: MirrorReplay?
    /// The data every route serves.
    let store: MockStore
    /// `--watch`: the `--data` file, read again when it changed.
    let dataWatch: DataFileWatch?
    let faults: FaultInjector
    let rateLimiter: RateLimiter?
    let secondaryLimiter: SecondaryLimiter?
    let retryAfterFormat: RetryAfterFormat
    /// `--hostile-text`: every answer carries ``HostileText/headerValue``, every error message a sample.
    let hostileText: Bool
    /// `https` with `--tls`.
    let scheme: String
    let log: RequestLog
    let accessLog: AccessLog?
    let maxBodyBytes: Int

    /// Builds every component from the configuration, serving `data` (or a mirror's pages through `replay`).
    init(configuration: MockServerConfiguration, data: MockData, routes: RouteTable, replay: MirrorReplay? = nil,
         validators: Validators, accessLog: AccessLog?) {
        let store = MockStore(data: data)
        self.store = store
        self.dataWatch = configuration.watchesDataFile
            ? configuration.dataFile.map { DataFileWatch(path: $0, keyField: configuration.keyField, seed: configuration.seed) } : nil
        let initialFaults = FaultInjector.Settings(seed: configuration.seed, rules: configuration.faults)
        let items = ItemResponder(store: store, validators: validators, requireIfMatch: configuration.requireIfMatch)
        let rateLimiter = configuration.rateLimit.map {
            RateLimiter(limit: $0, refusalStatus: configuration.rateLimitStatus, fields: configuration.rateLimitFields,
                        retryAfterFormat: configuration.retryAfterFormat)
        }
        let secondaryLimiter = configuration.secondaryLimit.map(SecondaryLimiter.init)
        let news = NewsRoutes(store: store, validators: validators, arrivals: configuration.newsArrivals)
        self.routes = routes
        self.faults = FaultInjector(settings: initialFaults)
        self.rateLimiter = rateLimiter
        self.secondaryLimiter = secondaryLimiter
        self.news = news
        self.hostileText = configuration.hostileText
        self.scheme = configuration.tlsDirectory == nil ? "http" : "https"
        self.retryAfterFormat = configuration.retryAfterFormat
        self.log = RequestLog(capacity: configuration.journalCapacity)
        self.accessLog = accessLog
        self.pages = PageRoutes(
            store: store, validators: validators, defaultStyle: configuration.defaultStyle,
            keyKinds: data.collections.mapValues(\.keyKind), jsonServerConventions: configuration.dataFile != nil)
        self.posts = PostsRoutes(items: items)
        self.collections = CollectionRoutes(items: items)
        self.documents = DocumentRoutes(
            store: store, validators: validators,
            openAPI: OpenAPIDocument(routes: routes, data: data, configuration: configuration).content,
            styledCollections: routes.styledCollections, defaultStyle: configuration.defaultStyle)
        self.replay = replay
        self.admin = AdminRoutes(
            store: store, log: log, faults: faults, initialFaults: initialFaults, routes: routes, misses: replay?.misses,
            reset: {
                rateLimiter?.clear()
                secondaryLimiter?.clear()
                news.reset()
            })
        self.maxBodyBytes = configuration.maxBodyBytes
    }

    // MARK: Responding

    func respond(to request: Request, context: MockRequestContext) async throws -> Response {
        let started = accessLog == nil ? nil : ContinuousClock.now
        let match = routes.match(request.uri.path)
        let route = match?.route
        let isAPI = route?.isAdmin != true
        if let dataWatch, let data = dataWatch.reloaded() { store.replace(with: data) }
        if isAPI { log.began() }
        defer { if isAPI { log.ended() } }
        let (limitHeaders, primaryRefusal) = isAPI ? rateLimiter?.admit() ?? ([:], nil) : ([:], nil)
        // The secondary limit counts what the primary one let through, until it is answered.
        let secondary = primaryRefusal == nil && isAPI ? secondaryLimiter : nil
        let secondaryRefusal = secondary?.admit()
        defer { if secondaryRefusal == nil { secondary?.finish() } }
        let refusal = primaryRefusal ?? secondaryRefusal
        let decision = refusal == nil && isAPI ? route.flatMap { faults.decide(for: $0.template) } : nil
        if let decision, decision.delayMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.delayMilliseconds))
        }
        var reply: Reply
        if let refusal {
            reply = Reply(error: refusal)
        } else if let decision, decision.failure == .status {
            let retryAfter = decision.retryAfter.map { retryAfterFormat.value(after: .seconds($0), from: Date()) }
            reply = Reply(error: .injected(status: decision.status, retryAfter: retryAfter))
        } else {
            reply = await handle(request, route: match, context: context)
        }
        if secondaryRefusal == nil { reply.headers.append(contentsOf: limitHeaders) }
        if hostileText { reply.makeHostile(sample: log.statistics.totalRequests) }
        let (response, bodyBytes) = reply.response(isHead: request.method == .head, bodyFault: decision?.failure)
        let entry = JournalEntry(
            sequence: 0, method: request.method.rawValue, url: request.uri.string,
            conditionalHeaders: Self.conditionalHeaders(of: request.headers),
            status: reply.status.code, bodyBytes: bodyBytes, fault: decision?.summary, miss: reply.isMiss ? true : nil)
        log.record(entry, route: "\(request.method.rawValue) \(route?.template ?? "(unmatched)")",
                   isConditional: !entry.conditionalHeaders.isEmpty, bytesSaved: reply.bytesSaved)
        if let accessLog, let started {
            accessLog.record(AccessLogEntry(
                time: Date(), method: entry.method, target: entry.url, status: entry.status, bodyBytes: bodyBytes,
                condition: reply.condition, duration: ContinuousClock.now - started, fault: entry.fault, miss: entry.miss == true))
        }
        return response
    }

    /// The handler's reply, or the JSON error reply of whatever went wrong.
    private func handle(_ request: Request, route: (route: Route, id: String?)?, context: MockRequestContext) async -> Reply {
        do throws(APIError) {
            var request = try await APIRequest(request, route: route, maxBodyBytes: maxBodyBytes, localAuthority: context.localAuthority)
            request.scheme = scheme
            switch (request.route, request.method) {
            case (.posts, .post), (.post, _):
                return try posts.respond(to: request)
            case (.collection(let name), .post), (.item(let name), _):
                return try collections.respond(to: request, collection: name)
            case (.posts, _), (.articles, _), (.feed, _), (.styled, _), (.collection, _):
                return try pages.respond(to: request)
            case (.news, _):
                return try news.respond(to: request)
            case (.mirrored, _):
                guard let replay else { throw .notFound("no route for \(request.path)") }
                return try await replay.respond(to: request)
            case (.exercises, _), (.openAPI, _), (.styleIndex, _), (.database, _):
                return try documents.respond(to: request)
            case (.stats, _), (.journal, _), (.faults, _), (.reset, _), (.tick, _), (.misses, _):
                return try admin.respond(to: request)
            }
        } catch {
            return Reply(error: error)
        }
    }

    /// The validator headers of a request, by lowercase name.
    private static func conditionalHeaders(of headers: HTTPFields) -> [String: String] {
        var found: [String: String] = [:]
        for name in [HTTPField.Name.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince] {
            if let value = headers[name] { found[name.canonicalName] = value }
        }
        return found
    }
}
