/// When to ask for the next page: as soon as the reader is within `threshold` items of the
/// end of what is loaded, so the page arrives before it is needed.
public struct PrefetchRule: Sendable, Equatable {
    /// How many items before the end the next page is requested.
    public var threshold: Int

    public init(threshold: Int = 10) {
        self.threshold = max(0, threshold)
    }

    /// Whether showing item `index` (0-based) of `loadedCount` should trigger the next page.
    public func shouldPrefetch(visibleIndex index: Int, loadedCount: Int) -> Bool {
        loadedCount == 0 || index >= loadedCount - 1 - threshold
    }
}
