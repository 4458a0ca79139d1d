import Dispatch
import Foundation

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal went away) cancel the running work
/// instead of killing the process, so the page being written finishes or rolls back cleanly
/// and the user gets one line and exit status 130.
enum Interruption {
    static func cancellingOnSignal<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let sources = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        return try await task.value
    }
}
