import Synchronization

/// Tracks background tasks (stale-while-revalidate refreshes) so a caller can wait for them.
final class BackgroundWork: Sendable {
    private let tasks = Mutex<[Task<Void, Never>]>([])

    func start(_ work: @escaping @Sendable () async -> Void) {
        let task = Task { await work() }
        tasks.withLock { $0.append(task) }
    }

    func waitForAll() async {
        while true {
            let pending = tasks.withLock { running in
                defer { running.removeAll() }
                return running
            }
            if pending.isEmpty { return }
            for task in pending { await task.value }
        }
    }
}
