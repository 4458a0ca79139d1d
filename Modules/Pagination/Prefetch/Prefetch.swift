/// Infinite scroll's rule (seed 004): load the next page when the reader comes within
/// ``distance`` rows of the end of what is loaded, so it arrives before it is needed, and never
/// ask for a page while one is on its way.
///
/// Keep one per list: a load it starts blocks the next until ``finished(failure:)``; a failed
/// one waits for ``retry()``.
public struct Prefetch: Sendable, Equatable {
    /// How many rows before the end the next page is asked for.
    public let distance: Int
    /// Whether a page is loading, or the last load failed.
    public private(set) var state: LoadState = .idle

    public init(distance: Int = 10) { self.distance = max(0, distance) }

    /// Whether to start loading the next page now, with row `selected` (from 0) of `loaded` rows in view
    /// and `hasMore` pages to come: when idle and within ``distance`` of the end (the state turns `.loading`).
    public mutating func startIfNear(selected: Int, loaded: Int, hasMore: Bool) -> Bool {
        guard hasMore, state == .idle, loaded == 0 || selected >= loaded - 1 - distance else { return false }
        state = .loading
        return true
    }

    /// Whether to load again after a failure (the user asked); a yes turns the state to `.loading`.
    public mutating func retry() -> Bool {
        guard case .failed = state else { return false }
        state = .loading
        return true
    }

    /// The load ended: stored (`failure` is `nil`), or failed for that reason.
    public mutating func finished(failure: String?) { state = failure.map(LoadState.failed) ?? .idle }
}

/// Where a list's next page stands, as a UI shows it under the last row.
public enum LoadState: Sendable, Equatable {
    /// Nothing is loading.
    case idle
    /// A page is on its way.
    case loading
    /// The last load failed; ``Prefetch/retry()`` asks again.
    case failed(String)
}
