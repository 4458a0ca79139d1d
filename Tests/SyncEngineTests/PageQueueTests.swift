@testable import SyncEngine
import Testing

@Suite("The queue between fetching and writing")
struct PageQueueTests {
    struct ProducerFailed: Error, Equatable {}

    /// Long enough that only the rule under test, never the timer, can release a batch.
    let never = Duration.seconds(3600)

    @Test func aFullBatchIsTakenAtOnce() async throws {
        let queue = PageQueue<Int>(capacity: 8, batchSize: 3, maximumDelay: never)
        for page in 1...4 { await queue.put(page) }
        #expect(try await queue.takeBatch() == [1, 2, 3, 4])
    }

    @Test func theLastPageEndsAShortBatch() async throws {
        let queue = PageQueue<Int>(capacity: 8, batchSize: 5, maximumDelay: never)
        await queue.put(1)
        await queue.put(2, isLast: true)
        #expect(try await queue.takeBatch() == [1, 2])
    }

    @Test func aSlowServersPageIsWrittenAfterTheDelay() async throws {
        let queue = PageQueue<Int>(capacity: 8, batchSize: 5, maximumDelay: .milliseconds(1))
        await queue.put(1)
        #expect(try await queue.takeBatch() == [1])
        await queue.put(2)
        #expect(try await queue.takeBatch() == [2])
    }

    @Test func theProducersErrorComesAfterThePagesBeforeIt() async throws {
        let queue = PageQueue<Int>(capacity: 8, batchSize: 5, maximumDelay: never)
        await queue.put(1)
        await queue.fail(ProducerFailed())
        #expect(try await queue.takeBatch() == [1])
        await #expect(throws: ProducerFailed.self) { try await queue.takeBatch() }
    }

    @Test func aFullQueueHoldsTheProducerAndLosesNothing() async throws {
        let queue = PageQueue<Int>(capacity: 2, batchSize: 2, maximumDelay: never)
        let producer = Task {
            for page in 1...9 { await queue.put(page, isLast: page == 9) }
        }
        var taken: [Int] = []
        while taken.last != 9 {
            let batch = try await queue.takeBatch()
            #expect(batch.count <= 2)
            taken += batch
        }
        await producer.value
        #expect(taken == Array(1...9))
    }

    @Test func closingReleasesAProducerWaitingForRoom() async throws {
        let queue = PageQueue<Int>(capacity: 1, batchSize: 1)
        await queue.put(1)
        let blocked = Task { await queue.put(2) }
        await queue.close()
        await blocked.value
        await queue.put(3)
        #expect(try await queue.takeBatch() == [1])
    }
}
