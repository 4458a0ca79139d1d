import DedicatedThreads
import Dispatch
import Foundation
import HTTPCache
@testable import MockServer
import Testing
@testable import CurlTransport

@Suite("A transfer chain: requests driven from one thread, without blocking it")
struct TransferChainTests {
    let transport = CurlTransport()

    func request(_ url: String) -> TransportRequest {
        TransportRequest(method: .get, url: URL(string: url)!)
    }

    @Test func aTaskOnTheLoopTransfersWithoutLeavingItsThread() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30))
        let chain = try #require(transport.makeChain(name: "test.loop"))
        let loop = chain.loop
        let task = Task(executorPreference: loop) { () -> (sameThread: Bool, body: Data?) in
            defer { loop.stop() }
            let before = pthread_self()
            let response = try? await chain.transport.send(request("\(server.baseURL)/posts?limit=7"))
            return (pthread_equal(before, pthread_self()) != 0, response?.body)
        }
        let (sameThread, received) = await task.value
        await server.stop()
        #expect(sameThread)
        let json = try JSONSerialization.jsonObject(with: try #require(received)) as? [String: Any]
        #expect((json?["data"] as? [Any])?.count == 7)
    }

    @Test func theRequestGoesOutBeforeTheTaskRunsAgain() async throws {
        // What a sync's read-ahead relies on: a child task starts the next page's request, the
        // parent yields once, and the request is on the server's side before the parent reads.
        let server = try KeepAliveServer()
        defer { server.stop() }
        let chain = try #require(transport.makeChain(name: "test.ahead"))
        let loop = chain.loop
        let arrivedWhileParentRan = await Task(executorPreference: loop) { () -> Bool in
            defer { loop.stop() }
            // The first request opens the connection that the second one reuses.
            _ = try? await chain.transport.send(request(server.baseURL + "/first"))
            server.requestArrived.wait()
            async let second = chain.transport.send(request(server.baseURL + "/second"))
            await Task.yield()
            // Blocking the loop's thread: the request must already have left.
            let arrived = server.requestArrived.wait(timeout: .now() + 10) == .success
            _ = try? await second
            return arrived
        }.value
        #expect(arrivedWhileParentRan)
    }

    @Test func transfersOfOneLoopRunAtTheSameTime() async throws {
        let configuration = MockServerConfiguration(postCount: 30, faults: [FaultRule(route: "/users", latencyMilliseconds: 3000)])
        let server = try await RunningMockServer.start(configuration)
        let chain = try #require(transport.makeChain(name: "test.parallel"))
        let loop = chain.loop
        let order = await Task(executorPreference: loop) { () -> [String] in
            defer { loop.stop() }
            // The slow one first: if the loop ran one transfer at a time, it would also finish first.
            return await withTaskGroup(of: String.self) { group in
                for path in ["/users", "/posts/2"] {
                    group.addTask {
                        _ = try? await chain.transport.send(request(server.baseURL + path))
                        return path
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }.value
        await server.stop()
        #expect(order == ["/posts/2", "/users"])
    }

    @Test func aTransferOnTheLoopIsCancelled() async throws {
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/posts", latencyMilliseconds: 5000)])
        let server = try await RunningMockServer.start(configuration)
        let chain = try #require(transport.makeChain(name: "test.cancelled"))
        let loop = chain.loop
        let task = Task(executorPreference: loop) {
            defer { loop.stop() }
            return try await chain.transport.send(request("\(server.baseURL)/posts"))
        }
        task.cancel()
        await #expect(throws: TransportError.cancelled) { try await task.value }
        await server.stop()
    }

    @Test func aRequestFromAnotherThreadIsHandedToTheLoop() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 3))
        let chain = try #require(transport.makeChain(name: "test.handed"))
        // No executor preference: the request is sent from the global pool.
        let response = try await chain.transport.send(request("\(server.baseURL)/posts/1"))
        chain.loop.stop()
        // Once the loop has stopped, a request still goes, on a thread of its own.
        let after = try await chain.transport.send(request("\(server.baseURL)/posts/2"))
        await server.stop()
        #expect(response.status == .ok && after.status == .ok)
    }

    @Test func aTaskThatOutlivesTheLoopGoesOnElsewhere() async throws {
        let chain = try #require(transport.makeChain(name: "test.stopped"))
        let loop = chain.loop
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let task = Task(executorPreference: loop) {
            var received: [Int] = []
            for await value in stream { received.append(value) }
            return received
        }
        loop.stop()
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        #expect(await task.value == [1, 2])
    }
}
