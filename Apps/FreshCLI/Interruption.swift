import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal went away) cancel the running work
/// instead of killing the process, so the page being written finishes or rolls back cleanly
/// and the user gets one line and exit status 130.
enum Interruption {
    static func cancellingOnSignal<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let target = CancellationTarget()
        let sources = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { target.cancel() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        // Started on this thread, not handed to another one of the pool: work that never waits
        // (an answer from the cache) finishes right here. A signal during the part before the
        // work first waits cancels it from that wait on: code there that checks for
        // cancellation without waiting would not see it.
        let task = Task.immediate { try await work() }
        target.attach { task.cancel() }
        return try await task.value
    }
}

/// What a signal cancels. The task starts running before it can be attached (see
/// ``Interruption/cancellingOnSignal(_:)``), so a signal that comes first is kept and cancels
/// it as it is attached.
final class CancellationTarget: Sendable {
    private struct State {
        var cancel: (@Sendable () -> Void)?
        var requested = false
    }

    private let state = Mutex(State())

    func attach(_ cancel: @escaping @Sendable () -> Void) {
        let requested = state.withLock { state in
            state.cancel = cancel
            return state.requested
        }
        if requested { cancel() }
    }

    func cancel() {
        let cancel = state.withLock { state in
            state.requested = true
            return state.cancel
        }
        cancel?()
    }
}
