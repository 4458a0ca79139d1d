import Synchronization

/// Whoever waits on a connection, told once when it closes (see `ServerConnection.answer`).
final class CloseWatch: Sendable {
    private struct State {
        var closed = false
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Registers `onClose`; `nil` when the connection is closed already.
    func add(_ onClose: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiting[state.next] = onClose
            return state.next
        }
    }

    func remove(_ ticket: Int) { _ = state.withLock { $0.waiting.removeValue(forKey: ticket) } }

    /// The connection closed: everyone still waiting is told.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        waiting.forEach { $0() }
    }
}

/// A continuation resumed by whichever comes first, the answer or the close; the other is ignored.
final class SingleReply<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) { self.continuation = Mutex(continuation) }

    func resume(returning value: Value) { take()?.resume(returning: value) }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }

    private func take() -> CheckedContinuation<Value, any Error>? { continuation.withLock { $0.take() } }
}
