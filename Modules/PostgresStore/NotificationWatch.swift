import MirrorStore
import StoreAddress
import Synchronization

/// Tells a reader when anyone wrote to the mirror, without polling the server: a connection of
/// its own `LISTEN`s on `fresh_changes`, which every write notifies when it commits (see
/// ``PostgresMirror/write(_:)`` and `write_page`). A lost connection is said on the next look.
final class NotificationWatch: ChangeWatch {
    private struct State {
        var changed = false
        var failure: (any Error)?
    }

    private let state = Mutex(State())
    private let connection: ServerConnection
    private let listening: Mutex<Task<Void, Never>?> = Mutex(nil)

    private init(connection: ServerConnection) { self.connection = connection }

    static func start(at address: PostgresAddress) async throws -> NotificationWatch {
        let connection = try await ServerConnection.open(address)
        let watch = NotificationWatch(connection: connection)
        let notifications = try await connection.listen("fresh_changes")
        let task = Task { [weak watch] in
            do {
                for try await _ in notifications { watch?.state.withLock { $0.changed = true } }
                watch?.state.withLock { $0.failure = ServerFailure.closed(at: address) }
            } catch {
                watch?.state.withLock { $0.failure = error }
            }
        }
        watch.listening.withLock { $0 = task }
        return watch
    }

    func hasChanged() throws -> Bool {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            defer { state.changed = false }
            return state.changed
        }
    }

    deinit {
        listening.withLock { $0?.cancel() }
        Task { [connection] in await connection.close() }
    }
}
