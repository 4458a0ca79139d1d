import Foundation
import Pagination
import Synchronization
import Testing

/// Three pages of a fake collection, recording which tokens were asked for.
final class ThreePages: Sendable {
    let asked = Mutex<[PageToken]>([])
    let failuresLeft = Mutex(0)

    func load(_ token: PageToken) async throws -> Page<Int> {
        asked.withLock { $0.append(token) }
        if failuresLeft.withLock({ left in defer { left = max(0, left - 1) }; return left > 0 }) {
            throw URLError(.notConnectedToInternet)
        }
        switch token {
        case .first: return Page(items: [1, 2], next: .cursor("b"))
        case .cursor("b"): return Page(items: [3, 4], next: .cursor("c"))
        default: return Page(items: [5], next: nil)
        }
    }
}

@Suite("Paginator")
struct PaginatorTests {
    @Test func followsCursorsToTheEnd() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(loader: source.load)
        while try await paginator.loadNextPage() != nil {}
        #expect(await paginator.items == [1, 2, 3, 4, 5])
        #expect(await paginator.state == .endReached)
        #expect(source.asked.withLock { $0 } == [.first, .cursor("b"), .cursor("c")])
        #expect(try await paginator.loadNextPage() == nil)
    }

    @Test func aPaginatorThatDoesNotKeepItemsStillWalksEveryPage() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(keepsItems: false, loader: source.load)
        var seen: [Int] = []
        while let page = try await paginator.loadNextPage() { seen += page.items }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(await paginator.items.isEmpty)
        #expect(await paginator.pageCount == 3)
    }

    @Test func cancellingTheCallerCancelsTheLoad() async throws {
        let (started, signalStarted) = AsyncStream.makeStream(of: Void.self)
        let paginator = Paginator<Int> { _ in
            signalStarted.yield()
            try await Task.sleep(for: .seconds(3600))
            return Page(items: [1], next: nil)
        }
        let caller = Task { try await paginator.loadNextPage() }
        for await _ in started { break }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(await paginator.pageCount == 0)
    }

    @Test func concurrentRequestsShareOneLoad() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(loader: source.load)
        async let first = paginator.loadNextPage()
        async let second = paginator.loadNextPage()
        _ = try await (first, second)
        let asked = source.asked.withLock { $0 }
        #expect(Set(asked).count == asked.count, "no page may be requested twice")
    }

    @Test func failureKeepsThePositionSoTheNextCallRetries() async throws {
        let source = ThreePages()
        source.failuresLeft.withLock { $0 = 1 }
        let paginator = Paginator<Int>(loader: source.load)
        await #expect(throws: URLError.self) { try await paginator.loadNextPage() }
        if case .failed = await paginator.state {} else { Issue.record("state should be failed") }
        try await paginator.loadNextPage()
        #expect(await paginator.items == [1, 2])
        #expect(source.asked.withLock { $0 } == [.first, .first])
    }

    @Test func prefetchRuleTriggersNearTheEnd() {
        let rule = PrefetchRule(threshold: 5)
        #expect(!rule.shouldPrefetch(visibleIndex: 10, loadedCount: 20))
        #expect(rule.shouldPrefetch(visibleIndex: 14, loadedCount: 20))
        #expect(rule.shouldPrefetch(visibleIndex: 0, loadedCount: 0))
    }

    @Test func prefetchLoadsOnlyWhenClose() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(loader: source.load)
        try await paginator.loadNextPage()
        try await paginator.prefetchIfNeeded(visibleIndex: 0, rule: PrefetchRule(threshold: 0))
        #expect(await paginator.pageCount == 1)
        try await paginator.prefetchIfNeeded(visibleIndex: 1, rule: PrefetchRule(threshold: 0))
        #expect(await paginator.pageCount == 2)
    }
}

@Suite("Page URLs and Link headers")
struct PageURLTests {
    @Test func cursorReplacesTheQueryItemAndKeepsOthers() {
        let base = URL(string: "http://o.test/posts?limit=20&lang=ko")!
        #expect(PageURL.url(base: base, token: .cursor("abc")).absoluteString == "http://o.test/posts?limit=20&lang=ko&cursor=abc")
        let again = PageURL.url(base: URL(string: "http://o.test/posts?cursor=old&limit=5")!, token: .cursor("new"), limit: 10)
        #expect(again.absoluteString == "http://o.test/posts?cursor=new&limit=10")
    }

    @Test func cursorsWithPlusAreEncoded() {
        let url = PageURL.url(base: URL(string: "http://o.test/posts")!, token: .cursor("a+b/c="))
        #expect(url.absoluteString == "http://o.test/posts?cursor=a%2Bb/c%3D" || url.absoluteString == "http://o.test/posts?cursor=a%2Bb/c=")
    }

    @Test func resourceDropsPositionParameters() {
        #expect(PageURL.resource(of: URL(string: "http://o.test/posts?limit=20&cursor=x")!) == "http://o.test/posts?limit=20")
    }
}
