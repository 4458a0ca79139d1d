import Foundation

/// One loaded page: its items and the URL of the next one (`nil` at the end).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var next: URL?

    public init(items: [Item], next: URL?) {
        self.items = items
        self.next = next
    }
}

/// Walks a paginated collection page by page, one page at a time.
///
/// ``loadNextPage()`` is single-flight: while a page is loading, further calls wait for that
/// same load instead of starting another, so the same page is never requested twice at once.
/// A failed load leaves the position unchanged, so the next call retries the same page.
public actor Paginator<Item: Sendable> {
    /// Loads the page at a URL.
    public typealias Loader = @Sendable (URL) async throws -> Page<Item>

    private let loader: Loader
    private let keepsItems: Bool
    private var next: URL?
    private var inFlight: Task<Page<Item>, any Error>?

    /// Items of every page loaded so far, in order (empty when created with
    /// `keepsItems: false`).
    public private(set) var items: [Item] = []
    /// Pages loaded so far.
    public private(set) var pageCount = 0
    public private(set) var state: LoadState = .idle

    /// - Parameters:
    ///   - first: the URL of the first page.
    ///   - keepsItems: whether to keep every loaded item in ``items``. A consumer that writes
    ///     each page elsewhere (a sync into a database) passes `false` so memory stays flat.
    ///   - loader: loads the page at a URL.
    public init(startingAt first: URL, keepsItems: Bool = true, loader: @escaping Loader) {
        self.next = first
        self.keepsItems = keepsItems
        self.loader = loader
    }

    /// Whether another page may follow.
    public var hasMore: Bool { next != nil }

    /// Loads the next page and returns it, or `nil` when the end was already reached.
    @discardableResult
    public func loadNextPage() async throws -> Page<Item>? {
        if let inFlight { return try await inFlight.value }
        guard let url = next else { return nil }
        let task = Task { [loader] in try await loader(url) }
        inFlight = task
        state = .loading
        defer { inFlight = nil }
        do {
            // Cancelling the caller that started the load cancels the load itself.
            let page = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            if keepsItems { items.append(contentsOf: page.items) }
            pageCount += 1
            next = page.next
            state = page.next == nil ? .endReached : .idle
            return page
        } catch {
            state = .failed("\(error)")
            throw error
        }
    }

    /// Loads the next page if `rule` says the reader is close enough to the end.
    public func prefetchIfNeeded(visibleIndex: Int, rule: PrefetchRule) async throws {
        guard hasMore, inFlight == nil, rule.shouldPrefetch(visibleIndex: visibleIndex, loadedCount: items.count) else { return }
        try await loadNextPage()
    }
}
