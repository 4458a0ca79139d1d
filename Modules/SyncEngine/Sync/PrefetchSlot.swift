import Synchronization

/// The one page request in flight while the previous page is written: started as soon as the
/// next page's URL is known, taken when the loop is ready for it, cancelled with the sync.
final class PrefetchSlot: Sendable {
    private let task = Mutex<Task<FetchedPage, any Error>?>(nil)

    func start(_ fetch: @escaping @Sendable () async throws -> FetchedPage) {
        task.withLock { $0 = Task { try await fetch() } }
    }

    /// The page in flight, or `nil` when none was started.
    func take() async throws -> FetchedPage? {
        guard let current = task.withLock({ current in defer { current = nil }; return current }) else { return nil }
        return try await current.value
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
