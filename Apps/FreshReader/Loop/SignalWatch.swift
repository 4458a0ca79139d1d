import Dispatch
import Glibc

/// SIGINT, SIGTERM and SIGHUP delivered as a callback instead of killing the process, so
/// the reader leaves through the same door as `q` and the terminal is always restored.
///
/// Create it before the terminal starts: ncurses installs its own handlers only for
/// signals still at their default, and these no longer are.
final class SignalWatch {
    /// The signals that end the reader.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    private let sources: [any DispatchSourceSignal]
    /// A queue of its own (a thread made as needed), so a signal is heard while the shared pool's
    /// threads are all busy or blocked.
    private static let queue = DispatchQueue(label: "fresh.reader.signals")

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: Self.queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops watching; the signals stay ignored until the process exits.
    func cancel() { sources.forEach { $0.cancel() } }
}
