import Synchronization

/// The page loads and refreshes running behind the screen. When the user quits, the session
/// cancels them and waits for them to end before the store they read and write is closed.
final class BackgroundWork: Sendable {
    private let running = Mutex<(tasks: [Int: Task<Void, Never>], next: Int)>(([:], 0))

    /// Keeps `task` until it ends: ``stop()`` cancels it and waits for it.
    func track(_ task: Task<Void, Never>) {
        running.withLock { running in
            let id = running.next
            running.next += 1
            running.tasks[id] = Task { [self] in
                await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
                self.running.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Cancels every task still running and returns once they have all ended.
    func stop() async {
        let tasks = running.withLock { Array($0.tasks.values) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
