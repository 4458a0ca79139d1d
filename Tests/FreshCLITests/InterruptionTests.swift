import Foundation
import Synchronization
import Testing
@testable import FreshCLI

@Suite("Ctrl-C cancels the running work")
struct InterruptionTests {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// libdispatch arms a signal source a moment after it is resumed, and a signal before that
    /// is ignored, so the signal is sent again until the work has seen it; the work waits for
    /// the last one to be sent before it ends, while the sources still catch it.
    @Test func aSignalCancelsWorkThatIsWaiting() async throws {
        let before = [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            var action = sigaction()
            sigaction(signalNumber, nil, &action)
            return (signalNumber, action)
        }
        let started = Counter(), stopped = Counter()
        let interrupter = Task {
            while started.value.load(ordering: .acquiring) == 0 { await Task.yield() }
            while stopped.value.load(ordering: .acquiring) == 0 {
                kill(getpid(), SIGTERM)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        await #expect(throws: CancellationError.self) {
            try await Interruption.cancellingOnSignal {
                started.value.store(1, ordering: .releasing)
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch {
                    stopped.value.store(1, ordering: .releasing)
                    await interrupter.value
                    throw error
                }
            }
        }
        // The work is over: the test process answers these signals as it did before.
        for (signalNumber, action) in before { var action = action; sigaction(signalNumber, &action, nil) }
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
}
