import Synchronization

/// "Come back later", kept for a whole sync: after a 429 or a 503 that says when
/// (`Retry-After`), no request of the sync goes to that origin before then, whether it is the
/// walk's own, a page read ahead or a guess of the chain lookahead: each waits at the gate.
final class RetryAfterGate: Sendable {
    private let clock: SyncClock
    /// When requests may go to each origin again, for the origins told to wait.
    private let opensAt = Mutex<[String: ContinuousClock.Instant]>([:])

    init(clock: SyncClock) {
        self.clock = clock
    }

    /// Keeps every request to `origin` back for `wait` from now (a later opening wins).
    func close(_ origin: String, for wait: Duration) {
        let opening = clock.now() + wait
        opensAt.withLock { $0[origin] = max($0[origin] ?? opening, opening) }
    }

    /// Returns when `origin`'s gate is open, having waited for what is left of a close; returns
    /// how long it waited.
    func pass(_ origin: String) async throws -> Duration {
        guard let opening = opensAt.withLock({ $0[origin] }) else { return .zero }
        let left = opening - clock.now()
        guard left > .zero else { return .zero }
        try await clock.sleep(left)
        return left
    }
}
