import Synchronization

/// "Come back later", kept for a whole sync: after a 429 or a 503 that says when
/// (`Retry-After`), no request of the sync goes to that origin before then, whether it is the
/// walk's own, a page read ahead or a guess of the chain lookahead: each waits at the gate.
final class RetryAfterGate: Sendable {
    /// An origin told to wait: until when, and whether the user has been told.
    private struct Closing {
        var opensAt: ContinuousClock.Instant
        var announced: Bool
    }

    private let clock: SyncClock
    private let closings = Mutex<[String: Closing]>([:])

    init(clock: SyncClock) { self.clock = clock }

    /// Keeps every request to `origin` back for `wait` from now (a later opening wins).
    /// `announced`: the caller has told the user about this wait already.
    func close(_ origin: String, for wait: Duration, announced: Bool) {
        let opening = clock.now() + wait
        closings.withLock { closings in
            if let known = closings[origin], known.opensAt >= opening { return }
            closings[origin] = Closing(opensAt: opening, announced: announced)
        }
    }

    /// Returns when `origin`'s gate is open, having waited for what is left of a close; returns
    /// how long it waited. `announce` hears the wait first when nobody has told the user yet.
    func pass(_ origin: String, announce: (Duration) -> Void) async throws -> Duration {
        let now = clock.now()
        let wait = closings.withLock { closings -> (left: Duration, untold: Bool)? in
            guard let closing = closings[origin], closing.opensAt > now else { return nil }
            closings[origin]?.announced = true
            return (closing.opensAt - now, !closing.announced)
        }
        guard let wait else { return .zero }
        if wait.untold { announce(wait.left) }
        try await clock.sleep(wait.left)
        return wait.left
    }
}
