/// When each collection of a watch (`fresh sync --watch`) is synced next: after the interval
/// given, or, without one, when its first page's stored answer goes stale (its max-age), so no
/// request is sent while the pages are fresh; a sync that gave up on a long `Retry-After` is
/// tried again no sooner than the server said.
public struct WatchSchedule: Sendable {
    /// Without an interval: the wait when the pages give no lifetime (`max-age=0`, `no-cache`),
    /// and the shortest and longest waits.
    public static let unknownLifetime = Duration.seconds(60)
    public static let shortest = Duration.seconds(5)
    public static let longest = Duration.seconds(3600)

    public let interval: Duration?
    private var due: [String: ContinuousClock.Instant] = [:]

    public init(interval: Duration?) { self.interval = interval }

    /// Whether `name` is to be synced now (a name never synced is).
    public func isDue(_ name: String, at now: ContinuousClock.Instant) -> Bool { (due[name] ?? now) <= now }

    /// `name` was synced: next after the interval, else when its first page goes stale (`freshFor`: its lifetime left).
    public mutating func synced(_ name: String, freshFor lifetime: Duration?, at now: ContinuousClock.Instant = .now) {
        let wait = interval ?? lifetime.map { min(max($0, Self.shortest), Self.longest) } ?? Self.unknownLifetime
        due[name] = now + wait
    }

    /// `name`'s sync failed: next after the interval (or ``unknownLifetime``), no sooner than `retryAfter`.
    public mutating func failed(_ name: String, retryAfter: Duration?, at now: ContinuousClock.Instant = .now) {
        due[name] = now + max(interval ?? Self.unknownLifetime, retryAfter ?? .zero)
    }

    /// When the next of `names` is due.
    public func next(of names: [String], after now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
        names.compactMap { due[$0] }.min() ?? now + (interval ?? Self.unknownLifetime)
    }
}
