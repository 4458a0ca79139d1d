import Dispatch
import Foundation
import HTTPCache
import Synchronization
import MockServer
import Testing
@testable import CurlTransport

@Suite("TransferThread: a chain of requests made from a thread of its own")
struct TransferThreadTests {
    let transport = CurlTransport()

    @Test func aTaskPreferringTheThreadRunsAndTransfersThere() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30))
        let thread = TransferThread(name: "test.transfers")
        let task = Task(executorPreference: thread) { () -> (onThread: [Bool], body: Data?) in
            defer { thread.stop() }
            let before = TransferThread.isCurrent
            let response = try? await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts?limit=7")!))
            return ([before, TransferThread.isCurrent], response?.body)
        }
        let (onThread, received) = await task.value
        await server.stop()
        let body = try #require(received)
        #expect(onThread == [true, true])
        let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect((json?["data"] as? [Any])?.count == 7)
        #expect(!TransferThread.isCurrent)
    }

    @Test func aTransferOnTheThreadIsCancelled() async throws {
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/posts", latencyMilliseconds: 5000)])
        let server = try await RunningMockServer.start(configuration)
        let thread = TransferThread(name: "test.cancelled")
        let task = Task(executorPreference: thread) {
            defer { thread.stop() }
            return try await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts")!))
        }
        task.cancel()
        await #expect(throws: TransportError.cancelled) { try await task.value }
        await server.stop()
    }

    @Test func aTaskThatOutlivesTheThreadGoesOnElsewhere() async {
        let thread = TransferThread(name: "test.stopped")
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let task = Task(executorPreference: thread) {
            var received: [Int] = []
            for await value in stream { received.append(value) }
            return received
        }
        thread.stop()
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        #expect(await task.value == [1, 2])
    }

    @Test func workWhileWaitingRunsOnceOnTheThreadThatWaits() async throws {
        let configuration = MockServerConfiguration(postCount: 30, faults: [FaultRule(route: "/posts", latencyMilliseconds: 100)])
        let server = try await RunningMockServer.start(configuration)
        let thread = TransferThread(name: "test.waiting")
        let runs = Mutex<[Bool]>([])
        let work = WhileWaiting { runs.withLock { $0.append(TransferThread.isCurrent) } }
        let status = await Task(executorPreference: thread) {
            defer { thread.stop() }
            return try? await transport.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/posts?limit=3")!, whileWaiting: work)).status
        }.value
        work.run()
        await server.stop()
        #expect(status == .ok)
        // Once, during the exchange, on the transfer's thread; asking again does nothing.
        #expect(runs.withLock { $0 } == [true])
    }

    @Test func aRequestThatNeverLeavesLeavesTheWorkToTheCaller() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        let base = server.baseURL
        await server.stop()
        let runs = Mutex(0)
        let work = WhileWaiting { runs.withLock { $0 += 1 } }
        await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(method: .get, url: URL(string: base + "/posts")!, whileWaiting: work))
        }
        #expect(runs.withLock { $0 } == 0)
        work.run()
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func workAskedForWhileItRunsElsewhereIsWaitedFor() async {
        let (started, proceed, asking) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let done = Mutex(false)
        let work = WhileWaiting {
            started.signal()
            proceed.wait()
            done.withLock { $0 = true }
        }
        Thread.detachNewThread { work.run() }
        started.wait()
        let seenDone = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                asking.signal()
                work.run()
                continuation.resume(returning: done.withLock { $0 })
            }
            // The first run is let go as the second asks: an early return would see it unfinished.
            asking.wait()
            proceed.signal()
        }
        #expect(seenDone)
    }
}
