import Foundation

/// The time pacing's holds and backoffs wait on: tests pass one that moves its own time on at once.
public struct PacingClock: Sendable {
    /// The current time, for waits.
    public var now: @Sendable () -> ContinuousClock.Instant
    /// The wall-clock time, for times a server states (`X-RateLimit-Reset`, an HTTP date).
    public var date: @Sendable () -> Date
    /// Waits `duration` from now.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> ContinuousClock.Instant, date: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.date = date
        self.sleep = sleep
    }

    /// The continuous clock, with `Task.sleep`.
    public static let system = PacingClock(now: { .now }, sleep: { try await Task.sleep(for: $0) })
}
