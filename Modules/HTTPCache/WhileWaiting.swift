import Synchronization

/// Work for the thread that sends a request to do while the server prepares its answer (a
/// sync reads the previous page then, instead of after the answer came). A transport that
/// blocks its thread on the exchange runs it once the request has gone out; the caller runs
/// it otherwise (an answer from the cache, a transport that does not, a request that failed
/// before it was sent). It runs once, whoever asks first; whoever asks while it runs on another
/// thread waits for it to finish.
public final class WhileWaiting: Sendable, Equatable {
    private let work: Mutex<(@Sendable () -> Void)?>

    public init(_ work: @escaping @Sendable () -> Void) {
        self.work = Mutex(work)
    }

    /// Runs the work unless it ran already; returns once it has run.
    public func run() {
        // Held while the work runs: a second caller returns only after it is done.
        work.withLock { work in
            work?()
            work = nil
        }
    }

    public static func == (left: WhileWaiting, right: WhileWaiting) -> Bool { left === right }
}
