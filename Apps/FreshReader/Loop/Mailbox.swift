import Synchronization

/// Messages from Swift concurrency (the Fetcher, the database observation, signal handlers)
/// to the UI thread, which picks them up between two key reads; a post ends the wait for a key
/// (``wake``). ncurses is not thread-safe, so nothing but the UI thread ever draws.
final class Mailbox<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])
    /// Set by each post, so the UI thread's wait for a key ends (``Screen``).
    let wake = WakeSignal()

    /// Leaves a message for the next ``drain()``, and ends the UI thread's wait for a key.
    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        wake.set()
    }

    /// Whether no message waits.
    var isEmpty: Bool { messages.withLock { $0.isEmpty } }

    /// Every message posted since the last call, oldest first.
    func drain() -> [Message] {
        messages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }
}
