import Fetcher
import Foundation
import Synchronization
import Testing

/// A local store and a remote that the test controls.
final class FakeSources: Sendable {
    let stored = Mutex<[String]>(["cached"])
    let remoteResult = Mutex<Result<[String], FetchFailure>>(.success(["cached", "new"]))
    let remoteCalls = Mutex(0)

    func makeFetcher() -> Fetcher<[String]> {
        Fetcher(
            readLocal: { self.stored.withLock { $0 } },
            refreshRemote: {
                self.remoteCalls.withLock { $0 += 1 }
                let fresh = try self.remoteResult.withLock { try $0.get() }
                self.stored.withLock { $0 = fresh }
            },
            classify: { ($0 as? FetchFailure) ?? FetchFailure(message: "\($0)", isOffline: false) },
            clock: { Date(timeIntervalSince1970: 100) })
    }
}

@Suite("Fetcher (offline-first)")
struct FetcherTests {
    @Test func showsStoredValueWhileLoadingThenTheRefreshedOne() async throws {
        let sources = FakeSources()
        let fetcher = sources.makeFetcher()
        var states = fetcher.states().makeAsyncIterator()
        #expect(await states.next()?.status == .idle)
        await fetcher.refresh()
        let loading = await states.next()
        #expect(loading?.status == .loading)
        let withStored = await states.next()
        #expect(withStored?.value == ["cached"])
        #expect(withStored?.status == .loading)
        let done = await states.next()
        #expect(done?.value == ["cached", "new"])
        #expect(done?.status == .refreshed(Date(timeIntervalSince1970: 100)))
    }

    @Test func failureKeepsShowingStoredDataWithTheError() async throws {
        let sources = FakeSources()
        sources.remoteResult.withLock { $0 = .failure(FetchFailure(message: "cannot reach the server", isOffline: true)) }
        let fetcher = sources.makeFetcher()
        await fetcher.refresh()
        #expect(fetcher.state.value == ["cached"])
        #expect(fetcher.state.status == .failed(FetchFailure(message: "cannot reach the server", isOffline: true)))
    }

    @Test func loadLocalPublishesWithoutTouchingTheRemote() async throws {
        let sources = FakeSources()
        let fetcher = sources.makeFetcher()
        await fetcher.loadLocal()
        #expect(fetcher.state.value == ["cached"])
        #expect(sources.remoteCalls.withLock { $0 } == 0)
    }

    @Test func aRefreshAskedForOnSeeingTheLastOneEndStartsANewOne() async throws {
        let sources = FakeSources()
        let fetcher = sources.makeFetcher()
        let finished = Mutex(false)
        let watcher = Task {
            for await state in fetcher.states() {
                guard case .refreshed = state.status, !finished.withLock({ $0 }) else { continue }
                // Asked for the moment the end is seen, as a user pressing r again would.
                finished.withLock { $0 = true }
                await fetcher.startRefresh().value
                return
            }
        }
        await fetcher.refresh()
        await watcher.value
        #expect(sources.remoteCalls.withLock { $0 } == 2)
    }

    @Test func refreshWhileOneIsRunningJoinsIt() async throws {
        let (started, signalStarted) = AsyncStream.makeStream(of: Void.self)
        let (release, signalRelease) = AsyncStream.makeStream(of: Void.self)
        let calls = Mutex(0)
        let fetcher = Fetcher<Int>(
            readLocal: { calls.withLock { $0 } },
            refreshRemote: {
                calls.withLock { $0 += 1 }
                signalStarted.yield()
                for await _ in release { break }
            },
            classify: { FetchFailure(message: "\($0)", isOffline: false) })
        let first = fetcher.startRefresh()
        for await _ in started { break }
        let second = fetcher.startRefresh()
        #expect(first == second)
        signalRelease.yield()
        await second.value
        #expect(calls.withLock { $0 } == 1)
        #expect(fetcher.state.value == 1)
    }
}
