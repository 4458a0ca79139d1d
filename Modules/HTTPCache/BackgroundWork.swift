import Synchronization

/// Background tasks (stale-while-revalidate refreshes), at most one per key at a time, so a
/// caller can wait for them. A finished task removes itself.
final class BackgroundWork: Sendable {
    private let running = Mutex<[String: Task<Void, Never>]>([:])

    func start(key: String, _ work: @escaping @Sendable () async -> Void) {
        running.withLock { running in
            guard running[key] == nil else { return }
            running[key] = Task { [weak self] in
                await work()
                _ = self?.running.withLock { $0.removeValue(forKey: key) }
            }
        }
    }

    /// Returns when every task started so far (and any they started) has finished.
    func waitForAll() async {
        while let pending = running.withLock({ $0.values.first }) { await pending.value }
    }
}
