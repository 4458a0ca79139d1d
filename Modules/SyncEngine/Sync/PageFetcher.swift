import Foundation
import HTTPCache
import HTTPTypes
import JSON
import Pacing
import Pagination
import Synchronization

/// A page response ready to be read, or the end of the collection (a 404 past the last page).
struct FetchedPage: Sendable {
    var index: Int
    var url: URL
    var response: CachedResponse
    var endsCollection: Bool

    /// Whether the cache answered (fresh, revalidated or stale): then no body, only its ``CachedResponse/omittedBody``.
    var isFromStorage: Bool {
        switch response.decision.outcome {
        case .freshHit, .revalidated, .staleServed: true
        case .downloaded, .replaced, .bypassed, .unsatisfiable: false
        }
    }

    /// The length of the body a response from the cache stands for.
    var storedLength: Int? { response.omittedBody?.length }
}

/// Fetches pages through the HTTP cache, retrying what the ``RetryPolicy`` allows and saying each
/// wait (see ``RetryLoop``). Requests that failed are counted here; the page that came back is
/// counted by the caller, once it knows it keeps it.
struct PageFetcher: Sendable {
    let client: CachingClient
    let options: SyncOptions
    /// The origin `-H` fields may go to.
    let origin: String
    let tally: SyncTally
    let events: @Sendable (SyncEvent) -> Void
    let clock: PacingClock
    let gate: OriginGate
    let random: @Sendable () -> Double
    let acceptsAnything = AcceptFallback()

    /// JSON, and the JSON-based types (`application/vnd.api+json` of JSON:API, `application/hal+json`, …).
    static let accept = "application/json, application/*+json"

    /// Fetches page `index` at `url`; `plan` (when known) decides whether an error status ends the
    /// collection instead. `retrying`: `false` for a single attempt (a guess; see ``ChainLookahead``).
    func fetch(_ url: URL, index: Int, plan: PaginationPlan?, policy: CachePolicy? = nil, retrying: Bool = true) async throws -> FetchedPage {
        let retry = retrying ? options.retry : RetryPolicy(retries: 0, retriesUnreachable: false)
        // What the server said with the last error status, for the line that gives up.
        let lastMessage = Mutex<String?>(nil)
        return try await RetryLoop(policy: retry, clock: clock, random: random).run { _ in
            try await attempt(url, index: index, plan: plan, policy: policy ?? options.policy, said: lastMessage)
        } willRetry: { retry in
            tally.update { $0.retries += 1 }
            // A rate limit's wait is the gate's: the next attempt waits there, and says so.
            guard !retry.waitsAtGate else { return }
            events(.retrying(url: url, after: retry.wait, reason: retry.reason, attempt: retry.attempt, of: options.retry.retries))
            tally.update { $0.wait(retry.wait, for: SyncSummary.backoff) }
        } giveUp: { stop in
            throw stopError(stop.failure, url: url, reason: stop.reason + (lastMessage.withLock { $0 }.map { ": \($0)" } ?? ""))
        }
    }

    /// One request for the page: the page, the end of the collection, a failure the retry
    /// policy decides on, or an error no retry mends (thrown).
    /// `said`: what the server said with an error status it answered (``ErrorMessage``).
    private func attempt(
        _ url: URL, index: Int, plan: PaginationPlan?, policy: CachePolicy, said: borrowing Mutex<String?>
    ) async throws -> RetryLoop.Attempt<FetchedPage> {
        var policy = policy, endAskedAgain = false
        while true {
            let response: CachedResponse
            do {
                response = try await PacingContext.$current.withValue(pacing) {
                    try await send(request(for: url), policy: policy)
                }
            } catch let error as TransportError {
                switch error {
                case .invalidResponse(let reason): throw SyncError.badReply(url: url.absoluteString, reason: reason)
                case .bodyTooLarge(let limit):
                    tally.update { $0.requests += 1 }
                    throw SyncError.pageTooLarge(url: url.absoluteString, limit: limit)
                default:
                    guard let failure = RetryLoop.failure(of: error) else { throw error }
                    tally.update { $0.requests += 1 }
                    return .failed(failure)
                }
            } catch PacingError.waitTooLong(_, let wait, let reason, _) {
                throw SyncError.gaveUp(url: url.absoluteString, reason: "\(reason.explanation): the next request may go in "
                    + "\(wait.formattedSeconds), longer than --max-wait \(options.retry.maximumWait.formattedSeconds)", status: nil, retryAfter: wait)
            }
            let decision = response.decision, code = response.status.code
            if case .bodyTooLarge(let limit)? = decision.networkFailure {
                tally.update { $0.requests += 1 }
                throw SyncError.pageTooLarge(url: url.absoluteString, limit: limit)
            }
            if (200..<300).contains(code), !decision.originUnreachable {
                return .done(FetchedPage(index: index, url: url, response: response, endsCollection: false))
            }
            tally.update { $0.requests += decision.requestsSent }
            if decision.originUnreachable, let error = decision.networkFailure {
                // A reply that is not HTTP is the server's answer, not a network that failed: no retry.
                if case .invalidResponse(let reason) = error { throw SyncError.badReply(url: url.absoluteString, reason: reason) }
                guard let failure = RetryLoop.failure(of: error) else { throw error }
                return .failed(failure)
            } else if code == 406, options.headerFields[.accept] == nil, acceptsAnything.fallBack() {
                // The server offers no JSON type the field names (JSON:API servers want their
                // own, exactly): asked again with `*/*`, as curl asks; not a retry.
                events(.notice("\(url.absoluteString) answered 406 to Accept: \(Self.accept); asking with */* from now on"))
                continue
            } else if plan?.endsCollection(status: code, pageIndex: index) == true {
                // The end is asked twice, the second time past a stored answer (unless the sync
                // may not ask the network): a 404 for a moment (a deploy, a replica behind) would
                // end the pass early, and the end of a pass removes every item after it.
                guard endAskedAgain else {
                    endAskedAgain = true
                    if [.useProtocolCachePolicy, .reloadRevalidatingCacheData, .returnCacheDataElseLoad].contains(policy) {
                        policy = .reloadIgnoringLocalCacheData
                    }
                    continue
                }
                return .done(FetchedPage(index: index, url: url, response: response, endsCollection: true))
            }
            let refusal = Refusal.of(status: code, limit: StatedLimit(fields: response.headerFields, now: clock.date()), body: response.body)
            guard refusal != nil || RetryPolicy.isRetryable(status: code) else {
                throw SyncError.httpStatus(code: code, url: url.absoluteString, message: ErrorMessage.from(response))
            }
            said.withLock { $0 = ErrorMessage.from(response) }
            return .failed(RetryPolicy.failure(status: code, refusal: refusal, hold: gate.hold(of: Origin.of(url))))
        }
    }

    /// What the gate may wait for this sync's requests, and where its waits are told.
    private var pacing: PacingContext {
        PacingContext(maximumWait: options.retry.maximumWait) { [tally, events] wait in
            tally.update { $0.wait(wait.duration, for: wait.reason.rawValue) }
            if wait.isFirst { events(.waitingAtGate(url: wait.url, for: wait.duration, reason: wait.reason.explanation)) }
        }
    }

    /// Sends through the cache. A page fresh only by the heuristic of RFC 9111 §4.2.2 (a
    /// `Last-Modified` and no `max-age` or `Expires`) is asked for again conditionally: a sync
    /// is a request to see changes, and only the server's own lifetime is trusted to mean none.
    private func send(_ request: TransportRequest, policy: CachePolicy) async throws -> CachedResponse {
        let response = try await client.send(request, policy: policy)
        guard policy == .useProtocolCachePolicy, response.decision.outcome == .freshHit,
              response.decision.freshnessLifetime?.source == .heuristic else { return response }
        return try await client.send(request, policy: .reloadRevalidatingCacheData)
    }

    /// The page request: ``accept`` (or `*/*` after a 406) unless `-H` says otherwise, and the
    /// `-H` fields only for the collection's own origin (as curl drops them on a redirect elsewhere).
    private func request(for url: URL) -> TransportRequest {
        var fields = HTTPFields()
        if Origin.of(url) == origin {
            fields = options.headerFields
        } else if !options.headerFields.isEmpty {
            events(.droppedHeaders(url: url))
        }
        if fields[.accept] == nil { fields[.accept] = acceptsAnything.isSet ? "*/*" : Self.accept }
        var request = TransportRequest(method: .get, url: url, headerFields: fields, timeout: options.timeout,
                                       maximumBodySize: options.maximumPageSize)
        request.trust = options.trust
        return request
    }

    private func stopError(_ failure: RetryPolicy.Failure, url: URL, reason: String) -> SyncError {
        switch failure {
        case .status(let code): .gaveUp(url: url.absoluteString, reason: reason, status: code)
        case .limited(let code, _, let wait): .gaveUp(url: url.absoluteString, reason: reason, status: code, retryAfter: wait)
        case .transient(let message), .unreachable(let message): .offline(url: url.absoluteString, reason: message)
        }
    }
}

/// The message of an error response, for the one-line error: the `message`, `detail` or
/// `error` member of a JSON body (nested one level), else the start of a text body.
enum ErrorMessage {
    /// The most of a message kept: a line on stderr and in `fresh collections`, not a page.
    static let maximumLength = 300

    static func from(_ response: CachedResponse) -> String? {
        guard !response.body.isEmpty else { return nil }
        if let document = try? JSONDocument(response.body) {
            for path in [["error", "message"], ["message"], ["detail"], ["error_description"], ["error"], ["title"]] {
                if let text = document.value(at: JSONPath(path))?.string, !text.isEmpty { return shortened(text) }
            }
            return nil
        }
        let read = response.body.prefix(maximumLength * 4)
        let lines = String(decoding: read, as: UTF8.self).split(whereSeparator: \.isNewline)
        // A character the byte limit cut in two is no part of the message.
        guard let first = lines.first?.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\u{FFFD}"]), !first.isEmpty else {
            return nil
        }
        // Only the first line is kept: more after it, or past the bytes read, is a cut too.
        return shortened(first, more: lines.count > 1 || read.count < response.body.count)
    }

    /// `text` up to ``maximumLength`` characters, cut after a word where it can be, and ending
    /// with `…` where it was cut (or where `more` follows it).
    static func shortened(_ text: String, more: Bool = false) -> String {
        guard text.count > maximumLength - (more ? 2 : 0) else { return more ? text + " …" : text }
        let kept = text.prefix(maximumLength - 1)
        let lastSpace = kept.lastIndex(of: " ").flatMap { kept.distance(from: kept.startIndex, to: $0) > maximumLength * 2 / 3 ? $0 : nil }
        return String(kept[..<(lastSpace ?? kept.endIndex)]) + "…"
    }
}

/// A sync's switch to `Accept: */*` after a 406, made once for all its pages.
final class AcceptFallback: Sendable {
    private let fallen = Mutex(false)

    var isSet: Bool { fallen.withLock { $0 } }

    /// Falls back; `false` when it had already (a 406 to `*/*` is the server's answer).
    func fallBack() -> Bool {
        fallen.withLock { fallen in
            defer { fallen = true }
            return !fallen
        }
    }
}
