import Foundation
import HTTPCache
import Synchronization

/// Where every request of the process (a page, a guess of a re-sync, a `fresh get`) waits its
/// turn, per ``Origin``: the one place that knows what each origin stated and enforced, so that
/// nothing is sent past a server's limits.
///
/// An origin is asked at most ``capacity(of:)`` requests at a time (``setParallel(_:for:)``), and
/// one at a time once it has stated a limit or refused a request by one (as GitHub asks of its
/// clients). Requests also wait while a ``Refusal`` holds the origin, and while the stated budget
/// is spent, until its reset: requests in flight count against it before their answer does.
public final class OriginGate: Sendable {
    /// Why requests to an origin wait.
    public enum HoldReason: String, Sendable, Hashable, CaseIterable {
        case retryAfter = "Retry-After"
        case spentBudget = "rate limit"
        case unstatedLimit = "unstated rate limit"

        /// How a line on stderr says it.
        public var explanation: String {
            switch self {
            case .retryAfter: "the server asked to wait (Retry-After)"
            case .spentBudget: "the stated rate limit is spent until it resets"
            case .unstatedLimit: "a rate limit that states no wait refused a request (waiting at least 60 s, doubled each time)"
            }
        }
    }

    /// A wait before a request: said once per hold (``isFirst``), counted every time.
    public struct Wait: Sendable, Equatable {
        public var url: URL
        public var duration: Duration
        public var reason: HoldReason
        /// Whether this is the first request to wait for this hold (the one that says so).
        public var isFirst: Bool
    }

    /// What the gate knows of one origin.
    private struct OriginState {
        var capacity: Int
        var inFlight = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        /// It stated a limit, or refused a request by one: one request at a time from now on.
        var isLimited = false
        /// Requests left in the budget, less those sent since the last answer; `nil`: unknown.
        var remaining: Int?
        var resetAt: ContinuousClock.Instant?
        var heldUntil: ContinuousClock.Instant?
        var holdReason: HoldReason = .retryAfter
        /// The end of the last hold a waiter said; a hold ending within a second of it is the same.
        var announcedUntil: ContinuousClock.Instant?
        /// Refusals in a row by a limit that stated no wait, each of a request sent after the last
        /// such hold ended (those in flight when one begins are part of it).
        var unstatedRefusals = 0
    }

    private struct State {
        var origins: [String: OriginState] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// Requests in flight to an origin that states no limit (what `--parallel` overrides).
    public let defaultParallel: Int
    /// The first wait after a refusal by a limit that states none (GitHub: at least a minute).
    public static let unstatedLimitWait = Duration.seconds(60)
    private let clock: PacingClock
    private let state = Mutex(State())

    public init(parallel: Int = 8, clock: PacingClock = .system) {
        defaultParallel = max(1, parallel)
        self.clock = clock
    }

    // MARK: Settings and questions

    /// Lets up to `parallel` requests go to `origin` at once (`--parallel`); a limited one stays at one.
    public func setParallel(_ parallel: Int, for origin: String) {
        state.withLock { state in
            state.origins[origin, default: OriginState(capacity: defaultParallel)].capacity = max(1, parallel)
        }
    }

    /// How many requests may be in flight to `origin` now.
    public func capacity(of origin: String) -> Int {
        state.withLock { state in
            guard let known = state.origins[origin] else { return defaultParallel }
            return known.isLimited ? 1 : known.capacity
        }
    }

    /// Whether `origin` has stated a limit or refused a request by one during this run.
    public func isLimited(_ origin: String) -> Bool { state.withLock { $0.origins[origin]?.isLimited ?? false } }

    /// Requests waiting for a turn at `origin` (for tests that need one to be waiting).
    func waiting(at origin: String) -> Int { state.withLock { $0.origins[origin]?.waiters.count ?? 0 } }

    /// How long requests to `origin` are held from now (zero when they are not).
    public func hold(of origin: String) -> Duration {
        let now = clock.now()
        return state.withLock { state in state.origins[origin].flatMap { Self.hold(of: $0, at: now)?.until }.map { now.duration(to: $0) } ?? .zero }
    }

    // MARK: Passing the gate

    /// Returns once a request to `url`'s origin may go, after its turn and any hold (`report` hears
    /// each wait first); every admission is followed by one ``finish(_:response:)``.
    /// - Throws: ``PacingError/waitTooLong(url:wait:reason:maximumWaitName:)`` when a hold is
    ///   longer than `maximumWait` (nothing is waited then); `CancellationError`.
    public func admit(_ url: URL, maximumWait: Duration, maximumWaitName: String = "--max-wait",
                      report: @Sendable (Wait) -> Void) async throws {
        let origin = Origin.of(url)
        while true {
            try await takeTurn(origin)
            let now = clock.now()
            let held = state.withLock { state -> (wait: Duration, reason: HoldReason, isFirst: Bool)? in
                guard var known = state.origins[origin] else { return nil }
                defer { state.origins[origin] = known }
                if let resetAt = known.resetAt, resetAt <= now, known.remaining == 0 { known.remaining = nil }
                guard let (until, reason) = Self.hold(of: known, at: now) else {
                    if let remaining = known.remaining { known.remaining = remaining - 1 }
                    return nil
                }
                let isFirst = known.announcedUntil.map { until - $0 > .seconds(1) || $0 - until > .seconds(1) } ?? true
                if isFirst { known.announcedUntil = until }
                return (now.duration(to: until), reason, isFirst)
            }
            guard let held else { return }
            endTurn(origin)
            guard held.wait <= maximumWait else {
                throw PacingError.waitTooLong(url: url, wait: held.wait, reason: held.reason, maximumWaitName: maximumWaitName)
            }
            report(Wait(url: url, duration: held.wait, reason: held.reason, isFirst: held.isFirst))
            try await clock.sleep(held.wait)
        }
    }

    /// A request admitted to `origin` is over: its turn goes to the next, and what its answer
    /// (`nil`: none came) says of the origin's limits is kept.
    public func finish(_ url: URL, response: TransportResponse?) {
        let origin = Origin.of(url)
        if let response { learn(from: response, origin: origin) }
        endTurn(origin)
    }

    // MARK: What an answer says

    private func learn(from response: TransportResponse, origin: String) {
        let stated = StatedLimit(fields: response.headerFields, now: clock.date())
        let refusal = Refusal.of(status: response.status.code, limit: stated, body: response.body)
        // The common answer states nothing and refuses nothing: there is nothing to learn.
        let wasLimited = state.withLock { $0.origins[origin].map { $0.isLimited || $0.unstatedRefusals > 0 } ?? false }
        guard stated.isStated || refusal != nil || response.status.code >= 400 || wasLimited else { return }
        let now = clock.now()
        state.withLock { state in
            var known = state.origins[origin, default: OriginState(capacity: defaultParallel)]
            defer { state.origins[origin] = known }
            if stated.isStated || refusal != nil { known.isLimited = true }
            if let remaining = stated.remaining {
                // What the server counted, less the requests it has not answered yet.
                known.remaining = max(0, remaining - max(0, known.inFlight - 1))
                known.resetAt = stated.resetIn.map { now + $0 } ?? known.resetAt
            }
            switch refusal {
            case .retryAfter(let wait)?:
                hold(&known, until: now + wait, because: .retryAfter)
            case .spentBudget(let resetIn)?:
                known.remaining = 0
                known.resetAt = now + (resetIn ?? Self.unstatedLimitWait)
            case .unstatedLimit? where Self.hold(of: known, at: now)?.reason == .unstatedLimit:
                // Its request went before the hold began (none goes during one): one refusal with
                // those in flight beside it, not a refusal again, so the wait does not double.
                break
            case .unstatedLimit?:
                known.unstatedRefusals += 1
                hold(&known, until: now + Self.unstatedLimitWait * (1 << min(known.unstatedRefusals - 1, 10)), because: .unstatedLimit)
            case nil:
                if response.status.code < 400 { known.unstatedRefusals = 0 }
            }
        }
    }

    /// Holds the origin until `until` (a later hold wins).
    private func hold(_ known: inout OriginState, until: ContinuousClock.Instant, because reason: HoldReason) {
        if let held = known.heldUntil, held >= until { return }
        known.heldUntil = until
        known.holdReason = reason
    }

    /// The hold on `known` at `now` and why: a hold, or a spent budget until its reset.
    private static func hold(of known: OriginState, at now: ContinuousClock.Instant) -> (until: ContinuousClock.Instant, reason: HoldReason)? {
        var holds: [(until: ContinuousClock.Instant, reason: HoldReason)] = []
        if let held = known.heldUntil, held > now { holds.append((held, known.holdReason)) }
        if known.remaining.map({ $0 <= 0 }) == true, let reset = known.resetAt, reset > now { holds.append((reset, .spentBudget)) }
        return holds.max { $0.until < $1.until }
    }

    // MARK: Turns

    /// Waits until fewer than the origin's capacity are in flight (first come, first served). A free
    /// turn is taken without suspending: most requests never wait, and a suspension costs an executor hop per page.
    private func takeTurn(_ origin: String) async throws {
        let id = state.withLock { state -> UInt64? in
            if Self.takeFreeTurn(&state.origins[origin, default: OriginState(capacity: defaultParallel)]) { return nil }
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted = state.withLock { state -> Bool? in
                    var known = state.origins[origin, default: OriginState(capacity: defaultParallel)]
                    defer { state.origins[origin] = known }
                    if Self.takeFreeTurn(&known) { return true }
                    if Task.isCancelled { return false }
                    known.waiters.append((id, continuation))
                    return nil
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.origins[origin]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.origins[origin]?.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Takes a turn when one is free and nobody waits for it before.
    private static func takeFreeTurn(_ known: inout OriginState) -> Bool {
        guard known.waiters.isEmpty, known.inFlight < (known.isLimited ? 1 : known.capacity) else { return false }
        known.inFlight += 1
        return true
    }

    /// Gives the turn back: the next waiter, if the capacity allows, goes now.
    private func endTurn(_ origin: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard var known = state.origins[origin] else { return nil }
            defer { state.origins[origin] = known }
            known.inFlight -= 1
            guard !known.waiters.isEmpty, known.inFlight < (known.isLimited ? 1 : known.capacity) else { return nil }
            known.inFlight += 1
            return known.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}

/// Why pacing gave up on a request before sending it.
public enum PacingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The origin is held for longer than the caller may wait (`--max-wait`).
    case waitTooLong(url: URL, wait: Duration, reason: OriginGate.HoldReason, maximumWaitName: String)

    public var description: String {
        switch self {
        case .waitTooLong(let url, let wait, let reason, let name):
            "\(Origin.of(url)) is held for \(wait.formattedSeconds) (\(reason.explanation)), longer than \(name)"
        }
    }
}

/// The origin of a URL: `scheme://host:port`, lower-cased, the unit limits apply to.
public enum Origin {
    public static func of(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
