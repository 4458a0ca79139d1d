import DedicatedThreads
import Foundation
import MirrorStore
import StoreAddress
import Synchronization

/// Tells a reader when anyone wrote to the mirror, without polling the server: a connection of
/// its own `LISTEN`s on `fresh_changes`, which every write notifies when it commits (see
/// ``PostgresMirror/write(_:)`` and `write_page`), and a thread of its own waits for them.
/// A lost connection is said on the next look.
final class NotificationWatch: ChangeWatch {
    private struct State {
        var changed = false
        var failure: (any Error)?
    }

    private let state = Mutex(State())
    private let thread: JobThread
    /// Written to end the wait: the write end of a pipe whose read end the thread polls beside the connection.
    private let stop: Int32

    private init(thread: JobThread, stop: Int32) {
        self.thread = thread
        self.stop = stop
    }

    static func start(at address: PostgresAddress) async throws -> NotificationWatch {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ServerFailure.storageError(PostgresFailure(client: "cannot make a pipe"), at: address) }
        ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        let thread = JobThread(name: "fresh.listen")
        let connection: LibpqConnection
        do {
            connection = try await ServerConnection.run(on: thread) {
                let connection = try LibpqConnection.connect(ServerConnection.parameters(of: address))
                _ = try connection.execute("LISTEN fresh_changes")
                return connection
            }
        } catch {
            thread.stop()
            close(ends[0])
            close(ends[1])
            throw ServerFailure.storageError(error, at: address, connecting: true)
        }
        let watch = NotificationWatch(thread: thread, stop: ends[1])
        thread.submit { [weak watch, stopped = ends[0]] in
            defer {
                connection.finish()
                close(stopped)
            }
            do {
                while try connection.waitForNotification(orReadable: stopped) { watch?.state.withLock { $0.changed = true } }
            } catch {
                watch?.state.withLock { $0.failure = ServerFailure.closed(at: address) }
            }
        }
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
        var byte: UInt8 = 1
        _ = write(stop, &byte, 1)
        thread.stop()
        close(stop)  // the read end is the thread's to close, once it has seen the byte
    }
}
