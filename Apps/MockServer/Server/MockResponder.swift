import HTTPTypes
import Hummingbird

// MARK: - MockResponder

/// The Hummingbird responder of the mock server: applies faults, dispatches to the route
/// handlers, turns every error into a JSON error response, and records statistics and journal.
struct MockResponder: HTTPResponder {
    typealias Context = MockRequestContext

    let posts: PostsRoutes
    let catalog: CatalogRoutes
    let admin: AdminRoutes
    let faults: FaultInjector
    let log: RequestLog
    let maxBodyBytes: Int

    /// Builds every component from the configuration.
    init(configuration: MockServerConfiguration) {
        let store = MockStore(seed: configuration.seedData)
        let validators = Validators(configuration: configuration)
        let initialFaults = FaultInjector.Settings(seed: configuration.seed, rules: configuration.faults)
        self.faults = FaultInjector(settings: initialFaults)
        self.log = RequestLog(capacity: configuration.journalCapacity)
        self.posts = PostsRoutes(store: store, validators: validators, requireIfMatch: configuration.requireIfMatch)
        self.catalog = CatalogRoutes(store: store, validators: validators)
        self.admin = AdminRoutes(store: store, log: log, faults: faults, initialFaults: initialFaults)
        self.maxBodyBytes = configuration.maxBodyBytes
    }

    // MARK: Responding

    func respond(to request: Request, context: MockRequestContext) async throws -> Response {
        let route = Endpoint.match(request.uri.path)
        let endpoint = route?.endpoint
        let decision = endpoint.flatMap { $0.isAdmin ? nil : faults.decide(for: $0) }
        if let decision, decision.delayMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.delayMilliseconds))
        }
        let reply: Reply
        if let decision, decision.failure == .status {
            reply = Reply(error: .injected(status: decision.status, retryAfter: decision.retryAfter))
        } else {
            reply = await handle(request, route: route, context: context)
        }
        let (response, bodyBytes) = reply.response(isHead: request.method == .head, bodyFault: decision?.failure)
        let entry = JournalEntry(
            sequence: 0, method: request.method.rawValue, url: request.uri.string,
            conditionalHeaders: Self.conditionalHeaders(of: request.headers),
            status: reply.status.code, bodyBytes: bodyBytes, fault: decision?.summary
        )
        log.record(
            entry, route: "\(request.method.rawValue) \(endpoint?.rawValue ?? "(unmatched)")",
            isConditional: !entry.conditionalHeaders.isEmpty, bytesSaved: reply.bytesSaved
        )
        return response
    }

    /// The handler's reply, or the JSON error reply of whatever went wrong.
    private func handle(_ request: Request, route: (endpoint: Endpoint, id: String?)?, context: MockRequestContext) async -> Reply {
        do throws(APIError) {
            let request = try await APIRequest(request, route: route, maxBodyBytes: maxBodyBytes, localAuthority: context.localAuthority)
            switch request.endpoint {
            case .posts, .post:
                return try posts.respond(to: request)
            case .articles, .feed, .exercises, .openAPI:
                return try catalog.respond(to: request)
            case .stats, .journal, .faults, .reset, .tick:
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
