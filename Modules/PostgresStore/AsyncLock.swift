import Synchronization

/// A lock that waits without blocking a thread: one task at a time holds it, the others queue in
/// order. It gives a server connection's transaction the connection to itself.
final class AsyncLock: Sendable {
    private struct State {
        var held = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` holding the lock, released however `body` ends.
    func holding<Value>(_ body: () async throws -> Value) async throws -> Value {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state in
                if state.held {
                    state.waiting.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            // Held on by the next waiter, if there is one.
            state.held = !state.waiting.isEmpty
            return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        }
        next?.resume()
    }
}
