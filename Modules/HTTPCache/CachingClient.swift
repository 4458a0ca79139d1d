import Foundation
import HTTPFields
import HTTPTypes

/// An RFC 9111 private cache in front of an ``HTTPTransport``.
///
/// Every call returns a ``CachedResponse`` whose ``CacheDecision`` says what happened and why.
/// The client follows redirects itself so each hop is cached by its own rules.
public final class CachingClient: Sendable {
    /// Redirect hops followed before giving up, unless the caller says otherwise.
    public static let maximumRedirects = 10

    private let transport: any HTTPTransport
    private let storage: any CacheStorage
    private let now: @Sendable () -> Date
    private let maximumEntrySize: Int
    private let backgroundWork: BackgroundWork

    /// - Parameter maximumEntrySize: bodies larger than this are never stored.
    public convenience init(
        transport: any HTTPTransport, storage: any CacheStorage,
        maximumEntrySize: Int = 10 * 1024 * 1024, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(transport: transport, storage: storage, maximumEntrySize: maximumEntrySize, now: now, backgroundWork: BackgroundWork())
    }

    private init(transport: any HTTPTransport, storage: any CacheStorage, maximumEntrySize: Int, now: @escaping @Sendable () -> Date,
                 backgroundWork: BackgroundWork) {
        self.transport = transport
        self.storage = storage
        self.maximumEntrySize = maximumEntrySize
        self.now = now
        self.backgroundWork = backgroundWork
    }

    /// This client over another transport (a chain of requests with a thread of its own): the
    /// same storage, and the same background refreshes, which ``waitForBackgroundRevalidations()``
    /// of either waits for.
    public func sending(through transport: any HTTPTransport) -> CachingClient {
        CachingClient(transport: transport, storage: storage, maximumEntrySize: maximumEntrySize, now: now, backgroundWork: backgroundWork)
    }

    // MARK: Sending

    /// Sends a request through the cache.
    ///
    /// - Parameter maximumRedirects: redirects followed before failing with
    ///   ``CacheError/tooManyRedirects(_:limit:)``; `nil` follows none and returns the redirect
    ///   response itself (as curl does without `-L`).
    public func send(
        _ request: TransportRequest, policy: CachePolicy = .useProtocolCachePolicy,
        maximumRedirects: Int? = CachingClient.maximumRedirects
    ) async throws -> CachedResponse {
        var current = request
        var requestsSent = 0
        var followed: [CachedResponse] = []
        while true {
            var response = try await sendOneHop(current, policy: policy)
            requestsSent += response.decision.requestsSent
            response.decision.requestsSent = requestsSent
            guard let maximumRedirects, let next = try RedirectRule.follow(current, response: response) else {
                response.redirects = followed
                return response
            }
            guard followed.count < maximumRedirects else { throw CacheError.tooManyRedirects(current.url.absoluteString, limit: maximumRedirects) }
            response.body = Data()
            followed.append(response)
            current = next
            // A Location with `user:password@` (the server's doing): sent as the first URL's are,
            // and kept out of the key and of every line printed.
            current.url = URLCredentials.moving(from: next.url, into: &current.headerFields)
        }
    }

    /// Whether ``send(_:policy:)`` answers `request` from storage alone and never reaches the
    /// network: `returnCacheDataDontLoad`, or a request that says `only-if-cached`.
    public static func answersFromStorageOnly(_ request: TransportRequest, policy: CachePolicy) -> Bool {
        policy == .returnCacheDataDontLoad || requestCacheControl(request).onlyIfCached
    }

    /// Waits until every `stale-while-revalidate` refresh started so far has finished; call before exit.
    public func waitForBackgroundRevalidations() async { await backgroundWork.waitForAll() }

    /// Whether any response to a GET of `url` is stored, whatever its variant.
    public func storesAnything(for url: URL) throws -> Bool {
        try !storage.variants(forKey: CacheKey.primary(method: .get, url: url)).isEmpty
    }

    /// What ``send(_:policy:)`` would do now for a GET of `url`, without sending anything.
    public func explain(url: URL, headerFields: HTTPFields = [:]) throws -> [String] {
        let request = TransportRequest(method: .get, url: url, headerFields: headerFields)
        guard let entry = try storedVariant(for: request) else {
            let key = CacheKey.primary(method: .get, url: url)
            let others = try storage.variants(forKey: key).count
            return [others == 0 ? "nothing stored for \(key): would download"
                : "nothing stored for \(key) for these credentials and headers (\(others) entr\(others == 1 ? "y" : "ies") for others: "
                    + "other credentials, -k, or other values of the fields its Vary names): would download"]
        }
        let evaluation = StoredResponseEvaluation(entry: entry, now: now())
        let (usable, reason) = evaluation.servesWithoutValidation(request: Self.requestCacheControl(request))
        if usable { return ["would answer from storage: \(reason)"] }
        var lines = [evaluation.summary]
        if evaluation.allowsStaleWhileRevalidate {
            lines.append("would serve it stale and revalidate in the background (stale-while-revalidate)")
        }
        let validators = ConditionalRequest.validators(of: entry)
        lines.append(validators.isEmpty
            ? "no validators stored: would download again"
            : "would revalidate with \(validators.map { "\($0.name) \($0.value)" }.joined(separator: " and "))")
        if reason != evaluation.summary { lines.insert(reason, at: 0) }
        return lines
    }

    // MARK: One hop

    private func sendOneHop(_ request: TransportRequest, policy: CachePolicy) async throws -> CachedResponse {
        let requestCC = Self.requestCacheControl(request)
        let networkForbidden = Self.answersFromStorageOnly(request, policy: policy)
        // Stored responses answer GET and HEAD by URL alone, so a request with a body (a search
        // API's GET with its query inside) is neither answered from storage nor stored, as an
        // unsafe method's is not: one body's answer must not be given to another.
        let isRead = request.method == .get || request.method == .head
        guard isRead, request.body?.isEmpty ?? true else {
            let what = isRead ? "a request with a body" : "\(request.method.rawValue) responses"
            if policy == .returnCacheDataDontLoad { throw CacheError.notStored(request.url.absoluteString) }
            if requestCC.onlyIfCached { return unsatisfiable(request, reason: "only-if-cached and \(what) are never stored") }
            return try await sendUncached(request, notStored: "\(what) are not stored")
        }
        // The caller's own conditional request goes to the origin as it is, unless the network
        // is off limits: then it is answered from storage like any other request.
        if ConditionalRequest.carriesOwnConditions(request), !networkForbidden {
            return try await download(request, requestCC: requestCC,
                                      outcome: .bypassed, reasons: ["request carries its own conditional headers"])
        }
        if policy.ignoresStoredData {
            var outgoing = request
            if policy == .reloadIgnoringLocalAndRemoteCacheData {
                outgoing.headerFields[.cacheControl] = "no-cache"
                outgoing.headerFields[.pragma] = "no-cache"
            }
            return try await download(outgoing, requestCC: requestCC,
                                      outcome: .bypassed, reasons: ["policy \(policy.shortName) ignores stored data"])
        }
        let entry: StoredResponse?
        var lookupReasons: [String] = []
        do {
            entry = try storedVariant(for: request)
        } catch {
            // Stored data is all this request may have: a store that cannot be read is the
            // answer (a damaged cache file), not "nothing is stored".
            if networkForbidden { throw error }
            entry = nil
            lookupReasons.append("cache storage could not be read (\(error)); treated as a miss")
        }
        guard let entry else {
            if policy == .returnCacheDataDontLoad { throw CacheError.notStored(request.url.absoluteString) }
            if requestCC.onlyIfCached { return unsatisfiable(request, reason: "only-if-cached and nothing is stored") }
            return try await download(request, requestCC: requestCC, outcome: .downloaded,
                                      reasons: lookupReasons + ["nothing stored for this URL and its Vary headers"])
        }
        let evaluation = StoredResponseEvaluation(entry: entry, now: now())
        let storedOutcome: CacheDecision.Outcome = evaluation.isFresh ? .freshHit : .staleServed(.acceptedByRequest)
        if policy.acceptsAnyAge {
            return answerFromStorage(evaluation, request: request, outcome: storedOutcome,
                                     reasons: ["policy \(policy.shortName) uses stored data whatever its age", evaluation.summary])
        }
        if policy == .useProtocolCachePolicy {
            let (usable, reason) = evaluation.servesWithoutValidation(request: requestCC)
            if usable { return answerFromStorage(evaluation, request: request, outcome: storedOutcome, reasons: [reason]) }
            if requestCC.onlyIfCached {
                return unsatisfiable(request, reason: "only-if-cached but the stored response is not usable: \(reason)")
            }
            if evaluation.allowsStaleWhileRevalidate && requestCC.acceptsStaleWhileRevalidate {
                backgroundWork.start(key: entry.key + "\n" + entry.variantKey) { [self, request] in
                    _ = try? await self.revalidate(request, evaluation: evaluation, requestCC: requestCC, reasons: [])
                }
                return answerFromStorage(evaluation, request: request, outcome: .staleServed(.whileRevalidating), reasons: [
                    reason, "stale-while-revalidate=\(entry.cacheControl.staleWhileRevalidate ?? 0) allows serving it; revalidating in the background",
                ])
            }
            return try await revalidate(request, evaluation: evaluation, requestCC: requestCC, reasons: [reason])
        }
        if evaluation.isFresh && entry.cacheControl.immutable && !entry.cacheControl.noCache {
            return answerFromStorage(evaluation, request: request, outcome: .freshHit, reasons: [
                "immutable: a fresh response is not revalidated, even on reload (RFC 8246)", evaluation.summary,
            ])
        }
        return try await revalidate(request, evaluation: evaluation, requestCC: requestCC,
                                    reasons: ["policy \(policy.shortName) always revalidates"])
    }

    // MARK: Network paths

    /// A conditional request for a stored response, with the request's own method (a HEAD
    /// stays a HEAD, as `curl -I` sends it: a 304 freshens the stored GET response, a 200 is
    /// shown and not stored); handles 304, full responses, errors and unreachable origins.
    private func revalidate(
        _ request: TransportRequest, evaluation: StoredResponseEvaluation, requestCC: CacheControl, reasons: [String]
    ) async throws -> CachedResponse {
        let entry = evaluation.entry
        var conditional = request
        for field in ConditionalRequest.validators(of: entry) { conditional.headerFields[field.name] = field.value }
        let sentValidators = conditional.headerFields[.ifNoneMatch] != nil || conditional.headerFields[.ifModifiedSince] != nil
        let requestTime = now()
        let network: TransportResponse
        do {
            network = try await transport.send(conditional)
        } catch let error as TransportError where error.meansOriginUnreachable {
            let (allowed, rule) = evaluation.allowsOfflineUse
            var answer = allowed || evaluation.allowsStaleIfError(request: requestCC)
                ? answerFromStorage(evaluation, request: request, outcome: .staleServed(.offline(error.description)),
                                    reasons: reasons + ["origin unreachable: \(error)", rule], requestsSent: 0)
                : unsatisfiable(request, reason: "origin unreachable (\(error)) and \(rule)")
            answer.decision.originUnreachable = true
            answer.decision.networkFailure = error
            return answer
        }
        let responseTime = now()
        if StoredResponseEvaluation.staleIfErrorStatuses.contains(network.status.code), evaluation.allowsStaleIfError(request: requestCC) {
            return answerFromStorage(evaluation, request: request, outcome: .staleServed(.onError(status: network.status.code)),
                                     reasons: reasons + ["origin answered \(network.status.code); stale-if-error allows the stored response"],
                                     requestsSent: 1)
        }
        if network.status == .notModified {
            guard sentValidators, ConditionalRequest.notModified(network.headerFields, matches: entry) else {
                // The origin changed its validator on the 304, or answered 304 to a request
                // without one: the stored response cannot be chosen, so ask again for the whole.
                var retried = try await download(request, requestCC: requestCC, outcome: .replaced, reasons: reasons + [
                    "sent \(sentValidators ? validatorText(conditional) : "no validators"); origin answered 304 Not Modified, "
                        + "which matches nothing stored: retried once without conditions",
                ])
                retried.decision.requestsSent += 1
                return retried
            }
            let refreshed = StorageRules.renewed(entry, notModified: network.headerFields, requestTime: requestTime, responseTime: responseTime)
            var decision = CacheDecision(outcome: .revalidated, requestsSent: 1, bytesSaved: entry.body.count,
                                         reasons: reasons + ["sent \(validatorText(conditional)); origin answered 304 Not Modified"])
            decision.stored = persistRenewed(refreshed, url: request.url, decision: &decision)
            let renewed = StoredResponseEvaluation(entry: refreshed, now: responseTime)
            decision.currentAge = renewed.currentAge
            decision.freshnessLifetime = renewed.lifetime
            if decision.stored { decision.add("freshness renewed: \(renewed.summary)") }
            storage.recordOutcome(CacheOutcome(kind: .revalidated, bytesSaved: entry.body.count, bytesReceived: network.wireByteCount))
            return CachedResponse(status: refreshed.status, headerFields: withAge(refreshed, age: renewed.currentAge),
                                  body: request.method == .head ? Data() : refreshed.body, url: request.url, decision: decision,
                                  omittedBody: refreshed.omittedBody)
        }
        let outcome: CacheDecision.Outcome = sentValidators ? .replaced : .downloaded
        let why = sentValidators
            ? "sent \(validatorText(conditional)); origin answered \(network.status.code)\(network.status == .ok ? " with a new body" : "")"
            : "no validators stored; downloaded again"
        var response = finishDownload(conditional, network: network, requestTime: requestTime, responseTime: responseTime,
                                      requestCC: requestCC, decision: CacheDecision(outcome: outcome, requestsSent: 1, reasons: reasons + [why]))
        // An answer not stored (a 503, a 206) replaced nothing: it came from the origin, that is all.
        if !response.decision.stored { response.decision.outcome = .downloaded }
        if request.method == .head { response.body = Data() }
        return response
    }

    /// An unconditional GET; the response is stored when the rules allow. A 304 to it (no
    /// validator was sent) is asked once more; a second one fails the request.
    private func download(
        _ request: TransportRequest, requestCC: CacheControl, outcome: CacheDecision.Outcome, reasons: [String],
        retryingNotModified: Bool = true
    ) async throws -> CachedResponse {
        let requestTime = now()
        let network = try await transport.send(request)
        let responseTime = now()
        if network.status == .notModified && !ConditionalRequest.carriesOwnConditions(request) {
            guard retryingNotModified else { throw CacheError.unexpectedNotModified(request.url.absoluteString) }
            var retried = try await download(request, requestCC: requestCC, outcome: outcome, reasons: reasons + [
                "origin answered 304 Not Modified to a request without validators: retried once",
            ], retryingNotModified: false)
            retried.decision.requestsSent += 1
            return retried
        }
        return finishDownload(request, network: network, requestTime: requestTime, responseTime: responseTime,
                              requestCC: requestCC, decision: CacheDecision(outcome: outcome, requestsSent: 1, reasons: reasons))
    }

    private func finishDownload(
        _ request: TransportRequest, network: TransportResponse, requestTime: Date, responseTime: Date,
        requestCC: CacheControl, decision initial: CacheDecision
    ) -> CachedResponse {
        var decision = initial
        decision.bytesReceived = network.wireByteCount
        storage.recordOutcome(CacheOutcome(kind: .miss, bytesSaved: 0, bytesReceived: network.wireByteCount))
        let key = CacheKey.primary(method: request.method, url: request.url)
        if request.method == .head {
            decision.notStoredReason = "HEAD responses carry no body to store"
        } else if network.status == .notModified {
            decision.notStoredReason = "a 304 for the caller's own conditional request"
            freshenStoredResponse(for: request, by: network, requestTime: requestTime, responseTime: responseTime, decision: &decision)
        } else if let reason = StorageRules.reasonNotToStore(
            method: request.method, requestCacheControl: requestCC, status: network.status,
            headerFields: network.headerFields, bodyCount: network.body.count, maximumEntrySize: maximumEntrySize
        ) {
            decision.notStoredReason = reason
            if network.status.code < 400 { removeStoredResponses(of: request.url, decision: &decision) }
        } else if let variantKey = Self.variant(of: request, vary: network.headerFields[values: .vary]) {
            let entry = StoredResponse(
                key: key, variantKey: variantKey, url: request.url, method: .get, status: network.status,
                headerFields: HopByHopFields.removed(from: network.headerFields), body: network.body,
                requestTime: requestTime, responseTime: responseTime)
            decision.stored = persist(entry, decision: &decision)
            if decision.stored {
                let evaluation = StoredResponseEvaluation(entry: entry, now: responseTime)
                decision.currentAge = evaluation.currentAge
                decision.freshnessLifetime = evaluation.lifetime
                decision.add("stored: \(evaluation.summary)")
            }
        }
        return CachedResponse(status: network.status, headerFields: network.headerFields, body: network.body,
                              url: request.url, decision: decision, version: network.version)
    }

    /// A 304 that answered the caller's own conditional request goes to the caller as it is,
    /// and still renews the stored response it selects (RFC 9111 §4.3.4).
    private func freshenStoredResponse(
        for request: TransportRequest, by network: TransportResponse, requestTime: Date, responseTime: Date,
        decision: inout CacheDecision
    ) {
        guard let entry = try? storedVariant(for: request),
              ConditionalRequest.notModifiedByCaller(network.headerFields, matches: entry) else { return }
        let renewed = StorageRules.renewed(entry, notModified: network.headerFields, requestTime: requestTime, responseTime: responseTime)
        if persistRenewed(renewed, url: request.url, decision: &decision) {
            decision.add("it selects the stored response, whose freshness it renews: \(StoredResponseEvaluation(entry: renewed, now: responseTime).summary)")
        }
    }

    /// Sends a request the cache does not answer as it is (`notStored` says why: an unsafe
    /// method, or a GET with a body); an unsafe method's non-error response invalidates the stored
    /// entries of the URL and of same-origin Location / Content-Location (RFC 9111 §4.4).
    private func sendUncached(_ request: TransportRequest, notStored: String) async throws -> CachedResponse {
        let network = try await transport.send(request)
        var decision = CacheDecision(outcome: .bypassed, notStoredReason: notStored, requestsSent: 1, bytesReceived: network.wireByteCount,
                                     reasons: [notStored])
        if Invalidation.invalidates(method: request.method, status: network.status) {
            for url in Invalidation.targets(requestURL: request.url, responseFields: network.headerFields) {
                if removeStoredResponses(of: url, decision: &decision) {
                    decision.add("invalidated stored responses for \(url.absoluteString)")
                }
            }
        }
        return CachedResponse(status: network.status, headerFields: network.headerFields, body: network.body,
                              url: request.url, decision: decision, version: network.version)
    }

    // MARK: Storage helpers

    /// Writes back a stored response a 304 renewed, unless the 304 says `no-store` (RFC 9111 §3,
    /// §5.2.2.5): a cache keeps no part of such a response, so the URL's stored responses are
    /// removed, as a 200 saying it removes them. Renewed, the entry went on answering, offline too.
    private func persistRenewed(_ renewed: StoredResponse, url: URL, decision: inout CacheDecision) -> Bool {
        let cacheControl = CacheControl(fieldValues: renewed.headerFields[values: .cacheControl])
        guard cacheControl.noStore && !cacheControl.contains("must-understand") else {
            return persist(renewed, decision: &decision, keepingBody: true)
        }
        decision.notStoredReason = "the 304 has no-store"
        if removeStoredResponses(of: url, decision: &decision) { decision.add("the 304 has no-store: the stored response is removed") }
        return false
    }

    /// Removes every stored response of `url`; a failure is one more reason in the decision.
    @discardableResult
    private func removeStoredResponses(of url: URL, decision: inout CacheDecision) -> Bool {
        do {
            try storage.removeAll(forKey: CacheKey.primary(method: .get, url: url))
            return true
        } catch {
            decision.add("could not invalidate \(url.absoluteString): \(error)")
            return false
        }
    }

    private func storedVariant(for request: TransportRequest) throws -> StoredResponse? {
        try storage.variants(forKey: CacheKey.primary(method: request.method, url: request.url)).first { stored in
            (stored.variantKey == StoredResponse.anyVariant || Self.variant(of: request, vary: stored.headerFields[values: .vary]) == stored.variantKey)
                && Self.encodingFits(stored, request)
        }
    }

    /// A body stored as the server encoded it (`Content-Encoding: gzip`, kept so for a request
    /// with its own `Accept-Encoding`) answers only such a request. Any other is promised the
    /// decoded bytes, and was given the gzip ones when the server sent no `Vary` (which lets a
    /// cache reuse the response, RFC 9111 §4.1, but not break that promise).
    private static func encodingFits(_ stored: StoredResponse, _ request: TransportRequest) -> Bool {
        request.headerFields[.acceptEncoding] != nil
            || FieldList.elements(stored.headerFields[values: .contentEncoding]).allSatisfy { $0.caseInsensitiveEquals("identity") }
    }

    /// The secondary key of `request` under a response's `Vary`: its credentials, and whether its
    /// server certificate goes unchecked (`-k` over HTTPS), count as well (``CacheKey/variant(vary:requestFields:uncheckedTLS:)``).
    private static func variant(of request: TransportRequest, vary: [String]) -> String? {
        CacheKey.variant(vary: vary, requestFields: request.headerFields,
                         uncheckedTLS: !request.trust.verifies && request.url.scheme?.lowercased() == "https")
    }

    private func persist(_ entry: StoredResponse, decision: inout CacheDecision, keepingBody: Bool = false) -> Bool {
        do {
            if keepingBody { try storage.refresh(entry) } else { try storage.store(entry) }
            return true
        } catch {
            decision.notStoredReason = (error as? CacheStorageError)?.description ?? "cache storage failed: \(error)"
            return false
        }
    }

    private func answerFromStorage(
        _ evaluation: StoredResponseEvaluation, request: TransportRequest, outcome: CacheDecision.Outcome,
        reasons: [String], requestsSent: Int = 0
    ) -> CachedResponse {
        let entry = evaluation.entry
        storage.recordAccess(key: entry.key, variantKey: entry.variantKey)
        storage.recordOutcome(CacheOutcome(kind: .hit, bytesSaved: entry.body.count, bytesReceived: 0))
        let decision = CacheDecision(outcome: outcome, stored: true, currentAge: evaluation.currentAge,
                                     freshnessLifetime: evaluation.lifetime, requestsSent: requestsSent,
                                     bytesSaved: entry.body.count, reasons: reasons)
        return CachedResponse(status: entry.status, headerFields: withAge(entry, age: evaluation.currentAge),
                              body: request.method == .head ? Data() : entry.body, url: request.url, decision: decision,
                              omittedBody: entry.omittedBody)
    }

    private func unsatisfiable(_ request: TransportRequest, reason: String) -> CachedResponse {
        let decision = CacheDecision(outcome: .unsatisfiable, notStoredReason: "nothing to store", reasons: [reason])
        return CachedResponse(status: .gatewayTimeout, headerFields: [.cacheControl: "no-store"], body: Data(),
                              url: request.url, decision: decision)
    }

    private static func requestCacheControl(_ request: TransportRequest) -> CacheControl {
        let values = request.headerFields[values: .cacheControl]
        if values.isEmpty, request.headerFields[values: .pragma].contains(where: { $0.lowercased().contains("no-cache") }) {
            return CacheControl("no-cache")
        }
        return CacheControl(fieldValues: values)
    }

    private func withAge(_ entry: StoredResponse, age: Int) -> HTTPFields {
        var fields = entry.headerFields
        fields[.age] = String(age)
        return fields
    }

    private func validatorText(_ request: TransportRequest) -> String {
        [HTTPField.Name.ifNoneMatch, .ifModifiedSince].compactMap { name in
            request.headerFields[name].map { "\(name.rawName): \($0)" }
        }.joined(separator: " and ")
    }
}
