import DedicatedThreads
import Foundation
import GRDB
import Synchronization

/// Copies the item database's write-ahead log back into the file on a connection and thread
/// of its own, while a sync goes on writing.
///
/// A checkpoint waits for the disk twice. Left to the writing connection, it would stall the sync
/// every few megabytes; in the background (passive: it never blocks the writer or a reader) it
/// overlaps with the network. Its thread runs below the process's priority, as the writer's does
/// (why: `DedicatedThreads.swift`). At `SCHED_IDLE` it hardly ran while both cores were busy: the
/// writer's own checkpoints (every 16 MiB, each waiting for the disk) did the work, and the last
/// close found more of the log to copy and wait for.
final class Checkpointer: Sendable {
    /// Log bytes written between two background checkpoints.
    static let interval = 4 * 1024 * 1024

    private struct State {
        var bytesSinceCheckpoint = 0
        var running = false
        /// The thread and connection, made for the first checkpoint.
        var thread: BackgroundThread?
        var connection: DatabaseQueue?
    }

    private let path: String
    private let state = Mutex(State())

    init(path: String) { self.path = path }

    deinit { state.withLock { $0.thread?.stop() } }

    /// Closes the checkpoint connection (waiting for a checkpoint under way), so the mirror's
    /// own close can be the file's last.
    func close() {
        let thread = state.withLock { $0.thread }
        let done = DispatchSemaphore(value: 0)
        if thread?.submit({ done.signal() }) == true { done.wait() }
        state.withLock { state in
            // A connection that cannot close is still in use: it closes with the process, and
            // the mirror's next writer checks the file once more.
            try? state.connection?.close()
            state.connection = nil
        }
    }

    /// Counts bytes just committed; starts a checkpoint when enough have gathered and none runs.
    func committed(bytes: Int) {
        let thread = state.withLock { state -> BackgroundThread? in
            state.bytesSinceCheckpoint += bytes
            guard state.bytesSinceCheckpoint >= Self.interval, !state.running else { return nil }
            state.bytesSinceCheckpoint = 0
            state.running = true
            if state.thread == nil { state.thread = BackgroundThread(name: "fresh.checkpoint", loweredBy: SQLiteMirror.writerNiceness) }
            return state.thread
        }
        thread?.submit { [self] in
            defer { state.withLock { $0.running = false } }
            // Best effort: the writer's own automatic checkpoint is the fallback.
            _ = try? connection()?.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        }
    }

    private func connection() -> DatabaseQueue? {
        state.withLock { state in
            if state.connection == nil {
                var configuration = Configuration()
                configuration.busyMode = .timeout(DatabaseFile.defaultBusyTimeout)
                state.connection = try? DatabaseQueue(path: path, configuration: configuration)
            }
            return state.connection
        }
    }
}
