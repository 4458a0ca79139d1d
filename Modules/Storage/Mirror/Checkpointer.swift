import Dispatch
import Foundation
import GRDB
import Synchronization

/// Copies the item database's write-ahead log back into the file on a connection and thread
/// of its own, while a sync goes on writing.
///
/// A checkpoint waits for the disk twice (milliseconds each). Left to the writing connection,
/// it would stall the sync every few megabytes; in the background it overlaps with the
/// network. A passive checkpoint never blocks the writer or a reader. Checkpoints come every
/// few megabytes, so what is left for the last connection's close to copy back stays small.
final class Checkpointer: Sendable {
    /// Log bytes written between two background checkpoints.
    static let interval = 4 * 1024 * 1024

    private struct State {
        var bytesSinceCheckpoint = 0
        var running = false
    }

    private let path: String
    private let state = Mutex(State())
    /// The checkpoints' connection, opened by the first one.
    private let connection = Mutex<DatabaseQueue?>(nil)
    private let queue = DispatchQueue(label: "fresh.checkpoint", qos: .utility)

    init(path: String) {
        self.path = path
    }

    /// Counts bytes just committed; starts a checkpoint when enough have gathered and none runs.
    func committed(bytes: Int) {
        let start = state.withLock { state in
            state.bytesSinceCheckpoint += bytes
            guard state.bytesSinceCheckpoint >= Self.interval, !state.running else { return false }
            state.bytesSinceCheckpoint = 0
            state.running = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            defer { state.withLock { $0.running = false } }
            // Best effort: the writer's own automatic checkpoint is the fallback.
            _ = try? openedConnection()?.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
    }

    private func openedConnection() -> DatabaseQueue? {
        connection.withLock { connection in
            if connection == nil {
                var configuration = Configuration()
                configuration.busyMode = .timeout(DatabaseFile.defaultBusyTimeout)
                connection = try? DatabaseQueue(path: path, configuration: configuration)
            }
            return connection
        }
    }
}
