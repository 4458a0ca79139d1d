import Synchronization
import Testing
@testable import FreshReader

private final class Ended: Sendable {
    let count = Mutex(0)
}

@Suite("Background work stops before the store closes")
struct BackgroundWorkTests {
    /// A load still running when the user quits is cancelled, and `stop()` returns only once it
    /// has ended: nothing touches the store after the session closes it.
    @Test func stopCancelsAndWaitsForEveryTask() async {
        let work = BackgroundWork()
        let ended = Ended()
        let (started, starting) = AsyncStream<Void>.makeStream()
        for _ in 0..<3 {
            work.track(Task {
                starting.yield()
                // Runs until cancelled, as a sync waiting for a slow server does.
                while !Task.isCancelled { await Task.yield() }
                ended.count.withLock { $0 += 1 }
            })
        }
        var count = 0
        for await _ in started {
            count += 1
            if count == 3 { break }
        }
        await work.stop()
        #expect(ended.count.withLock { $0 } == 3)
    }

    @Test func aFinishedTaskIsForgotten() async {
        let work = BackgroundWork()
        let task = Task {}
        work.track(task)
        await task.value
        await work.stop()
    }
}
