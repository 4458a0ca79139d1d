/// The time a sync waits on: retries' backoffs and the `Retry-After` gate. The real one sleeps;
/// tests pass one that records each wait and moves its own time on at once.
public struct SyncClock: Sendable {
    /// The current time.
    public var now: @Sendable () -> ContinuousClock.Instant
    /// Waits `duration` from now.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> ContinuousClock.Instant, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The continuous clock, with `Task.sleep`.
    public static let system = SyncClock(now: { .now }, sleep: { try await Task.sleep(for: $0) })
}
