import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal went away) cancel the running work
/// instead of killing the process, so the page being written finishes or rolls back cleanly
/// and the user gets one line and exit status 130.
///
/// The work may be waiting for something that no longer answers (a PostgreSQL server that
/// stopped without closing its connection): when it is still running a second after the
/// signal, a line says so, and a second signal stops the process at once. What was committed
/// stays; the transaction under way is rolled back, by SQLite at the next open, by the server
/// when it sees the connection gone.
enum Interruption {
    static func cancellingOnSignal<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let target = CancellationTarget()
        let watch = SignalPipe.watch {
            switch target.cancel() {
            case .first: sayWhenStillStopping(target)
            case .again:
                StandardError.writeAlways("fresh: interrupted again: stopping without waiting for the work under way")
                _exit(130)
            }
        }
        defer {
            watch?.cancel()
            // libdispatch lets go of a cancelled source's handler later, on its queue; the task,
            // and what its work holds (the databases), must not wait for that to be released.
            target.detach()
        }
        // Started on this thread, not another of the pool: work that never waits (an answer from
        // the cache) finishes right here. A signal before the work first waits cancels it from
        // that wait on: a cancellation check there that does not wait would not see it.
        let task = Task.immediate { try await work() }
        target.attach { task.cancel() }
        return try await task.value
    }

    /// How long cancelled work may take to end before a line says what a second signal does.
    static let patience = DispatchTimeInterval.seconds(1)

    private static func sayWhenStillStopping(_ target: CancellationTarget) {
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) {
            if target.isAttached {
                StandardError.writeAlways("fresh: stopping: waiting for the work under way to end (Ctrl-C again stops at once)")
            }
        }
    }
}

/// The three signals as bytes on a pipe. The handler is in place before the work starts, and a
/// byte waits in the pipe until the dispatch source that reads it is armed (libdispatch arms a
/// source a moment after it is resumed), so no signal is lost in between.
private enum SignalPipe {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// The pipe's ends, both non-blocking; the handler reads `writeEnd` (a plain global: a
    /// signal handler may touch nothing that locks). `nil` when no pipe could be made.
    private static let readEnd: Int32? = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        writeEnd = ends[1]
        return ends[0]
    }()
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// Where the pipe is read: a queue of its own, which libdispatch runs on a thread made as
    /// needed, so a signal is heard while the shared pool's threads (one per core) are all busy
    /// or blocked. On `.global()`, a signal during a loaded test run waited out a 20-second sleep.
    private static let queue = DispatchQueue(label: "fresh.signals")

    /// Installs the handler (again: a test may have restored another) and calls `onSignal` on
    /// a dispatch queue for every signal from now on, until the returned source is cancelled.
    /// Without a pipe (no descriptor left), the signals keep their default action: they end
    /// the process, whose files SQLite keeps consistent as after any crash.
    static func watch(_ onSignal: @escaping @Sendable () -> Void) -> (any DispatchSourceRead)? {
        guard let descriptor = readEnd else { return nil }
        // A signal that came while no work was running was ignored then; it cancels nothing now.
        var leftover = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &leftover, leftover.count) > 0 {}
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(SignalPipe.writeEnd, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        for signalNumber in signals { sigaction(signalNumber, &action, nil) }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            // Signals that came together (a hang-up's SIGHUP and SIGTERM) are one request.
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(descriptor, &bytes, bytes.count) > 0 {}
            onSignal()
        }
        source.resume()
        return source
    }
}

/// What a signal cancels. The task starts running before it can be attached (see
/// ``Interruption/cancellingOnSignal(_:)``), so a signal that comes first is kept and cancels
/// it as it is attached.
final class CancellationTarget: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var requests = 0
    }

    /// Whether a request is the first, or came while the cancelled work was still running.
    enum Request { case first, again }

    private let state = Mutex(State())

    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let requested = state.withLock { state in
            state.cancel = cancel
            return state.requests > 0
        }
        if requested { cancel() }
    }

    /// Forgets the task: a signal from now on cancels nothing.
    func detach() { state.withLock { $0.cancel = nil } }

    /// Whether a task is attached: the work has not ended.
    var isAttached: Bool { state.withLock { $0.cancel != nil } }

    /// Cancels the work (or the work attached next). A request after the first, while the work
    /// is still attached, is ``Request/again``: the caller stops the process.
    @discardableResult
    func cancel() -> Request {
        let (cancel, requests) = state.withLock { state in
            state.requests += 1
            return (state.cancel, state.requests)
        }
        cancel?()
        return requests > 1 && cancel != nil ? .again : .first
    }
}
