@testable import SyncEngine
import Synchronization
import Testing

@Suite("Write-behind: pages written by a task of their own, in batches")
struct WriteBehindTests {
    struct WriteFailed: Error, Equatable {}

    /// Long enough that only the rule under test, never the timer, can release a batch.
    let never = Duration.seconds(3600)

    /// What the writer was given, batch by batch.
    final class Written: Sendable {
        let batches = Mutex<[[Int]]>([])
        var all: [[Int]] { batches.withLock { $0 } }
    }

    func writer(capacity: Int = 8, batchSize: Int, delay: Duration? = nil, failingAt failing: Int? = nil,
                weight: @escaping @Sendable (Int) -> Double = { _ in 1 }) -> (WriteBehind<Int>, Written) {
        let written = Written()
        let writer = WriteBehind<Int>(capacity: capacity, batchSize: batchSize, maximumDelay: delay ?? never, weight: weight) { batch in
            if let failing, batch.contains(failing) { throw WriteFailed() }
            written.batches.withLock { $0.append(batch) }
        }
        return (writer, written)
    }

    @Test func aFullBatchIsWrittenInOneGo() async throws {
        let (writer, written) = writer(batchSize: 3)
        for page in 1...3 { try await writer.put(page) }
        let task = Task { await writer.writeAll() }
        try await writer.finish()
        await task.value
        #expect(written.all == [[1, 2, 3]])
    }

    @Test func theEndOfTheWalkWritesAShortBatch() async throws {
        let (writer, written) = writer(batchSize: 5)
        let task = Task { await writer.writeAll() }
        try await writer.put(1)
        try await writer.put(2)
        try await writer.finish()
        await task.value
        #expect(written.all == [[1, 2]])
    }

    @Test func aSlowServersPageIsWrittenAfterTheDelay() async throws {
        let (writer, written) = writer(batchSize: 5, delay: .milliseconds(1))
        let task = Task { await writer.writeAll() }
        try await writer.put(1)
        // Without the delay, a page that waits for four more would wait for ever.
        while written.all.isEmpty { await Task.yield() }
        try await writer.put(2)
        try await writer.finish()
        await task.value
        #expect(written.all == [[1], [2]])
    }

    @Test func aFailedWriteStopsThePutsAndIsWhatFinishThrows() async throws {
        let (writer, written) = writer(batchSize: 1, failingAt: 2)
        let task = Task { await writer.writeAll() }
        try await writer.put(1)
        while written.all.isEmpty { await Task.yield() }
        try await writer.put(2)
        await task.value
        await #expect(throws: WriteFailed.self) { try await writer.put(3) }
        await #expect(throws: WriteFailed.self) { try await writer.finish() }
        #expect(written.all == [[1]])
    }

    @Test func aFullQueueHoldsTheWalkAndLosesNothing() async throws {
        let (writer, written) = writer(capacity: 2, batchSize: 2)
        let task = Task { await writer.writeAll() }
        for page in 1...9 { try await writer.put(page) }
        try await writer.finish()
        await task.value
        #expect(written.all.allSatisfy { $0.count <= 2 })
        #expect(written.all.flatMap { $0 } == Array(1...9))
    }

    @Test func currentPagesShareABatchByWeight() async throws {
        // Negative pages stand for current ones, a quarter each: eight fill a batch of two pages' weight.
        let (writer, written) = writer(batchSize: 2, weight: { $0 < 0 ? 0.25 : 1 })
        let task = Task { await writer.writeAll() }
        for page in -8 ... -1 { try await writer.put(page) }
        while written.all.isEmpty { await Task.yield() }
        try await writer.put(1)
        try await writer.put(2)
        try await writer.finish()
        await task.value
        #expect(written.all == [Array(-8 ... -1), [1, 2]])
    }

    @Test(.timeLimit(.minutes(1))) func aQueueFullByWeightHoldsTheWalk() async throws {
        let (writer, written) = writer(capacity: 1, batchSize: 1, weight: { _ in 0.25 })
        for page in 1...4 { try await writer.put(page) }
        // A fifth light page would pass the capacity: it waits until the writer takes the four.
        let fifth = Task { try await writer.put(5) }
        let task = Task { await writer.writeAll() }
        try await fifth.value
        try await writer.finish()
        await task.value
        #expect(written.all.first == [1, 2, 3, 4])
        #expect(written.all.flatMap { $0 } == Array(1...5))
    }
}
