import Foundation
import DedicatedThreads
import Synchronization
import Testing

@Suite("A background thread for database work")
struct BackgroundThreadTests {
    struct WriteFailed: Error {}

    @Test func jobsReturnWhatTheyReturnOrThrow() async throws {
        let thread = BackgroundThread(name: "test.background", loweredBy: 5)
        defer { thread.stop() }
        for number in 1...5 {
            #expect(try await thread.run { number * 10 } == number * 10)
        }
        await #expect(throws: WriteFailed.self) { try await thread.run { throw WriteFailed() } }
    }

    @Test func jobsRunInOrderBelowTheProcesssPriority() async throws {
        let thread = BackgroundThread(name: "test.lowered", loweredBy: 5)
        defer { thread.stop() }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let processNiceness = getpriority(which, 0)
        let order = Mutex<[Int]>([])
        for number in 1...20 { thread.submit { order.withLock { $0.append(number) } } }
        let niceness = try await thread.run { getpriority(which, 0) }
        #expect(order.withLock { $0 } == Array(1...20))
        #expect(niceness == min(19, processNiceness + 5))
    }
}
