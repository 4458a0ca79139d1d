import Foundation
import Synchronization
import Testing
@testable import FreshCLI

@Suite("Ctrl-C cancels the running work", .serialized)
struct InterruptionTests {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// The work waits; a signal comes while it does.
    @Test func aSignalCancelsWorkThatIsWaiting() async throws {
        try await withSignalHandlingRestored {
            let started = Counter()
            let sent = DispatchSemaphore(value: 0)
            // The signal comes from a thread of its own, not a task: while other tests held the
            // pool's threads (a cluster started with waitpid), a task polling for the start ran so
            // late that the work's 20 s had nearly run out when the signal came.
            Thread {
                while started.value.load(ordering: .acquiring) == 0 { usleep(1_000) }
                kill(getpid(), SIGTERM)
                sent.signal()
            }.start()
            await #expect(throws: CancellationError.self) {
                try await Interruption.cancellingOnSignal {
                    started.value.store(1, ordering: .releasing)
                    try await Task.sleep(for: .seconds(20))
                }
            }
            sent.wait()
        }
    }

    /// A signal at the very start, before libdispatch has armed anything (it arms a source a
    /// moment after it is resumed), is not lost: it was ignored there before.
    @Test func aSignalAtTheVeryStartIsNotLost() async throws {
        try await withSignalHandlingRestored {
            await #expect(throws: CancellationError.self) {
                try await Interruption.cancellingOnSignal {
                    kill(getpid(), SIGINT)
                    try await Task.sleep(for: .seconds(20))
                }
            }
        }
    }

    /// The work starts before it can be attached; a signal in between is not lost.
    @Test func aSignalBeforeTheWorkIsAttachedCancelsItAsItIsAttached() {
        let target = CancellationTarget()
        let cancelled = Counter()
        target.cancel()
        #expect(cancelled.value.load(ordering: .relaxed) == 0)
        target.attach { cancelled.value.add(1, ordering: .relaxed) }
        #expect(cancelled.value.load(ordering: .relaxed) == 1)
        target.cancel()
        #expect(cancelled.value.load(ordering: .relaxed) == 2)
    }

    /// A request while the cancelled work is still running asks to stop at once (the work may
    /// be waiting for a server that no longer answers); one before the work starts does not.
    @Test func aSecondRequestWhileTheWorkRunsAsksToStopAtOnce() {
        let target = CancellationTarget()
        #expect(target.cancel() == .first)
        target.attach {}
        #expect(target.cancel() == .again)
        target.detach()
        #expect(target.cancel() == .first)
    }

    /// Runs `body`, then gives the test process back the dispositions it had for the signals.
    private func withSignalHandlingRestored(_ body: () async throws -> Void) async throws {
        let before = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            return (signalNumber, action)
        }
        defer { for (signalNumber, action) in before { var action = action; sigaction(signalNumber, &action, nil) } }
        try await body()
    }
}
