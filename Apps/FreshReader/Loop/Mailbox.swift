import Synchronization

/// Messages from Swift concurrency (the Fetcher, the database observation, signal handlers)
/// to the UI thread, which picks them up between two key polls. ncurses is not thread-safe,
/// so nothing but the UI thread ever draws.
final class Mailbox<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])

    /// Leaves a message for the next ``drain()``.
    func post(_ message: Message) { messages.withLock { $0.append(message) } }

    /// Every message posted since the last call, oldest first.
    func drain() -> [Message] {
        messages.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
    }
}
