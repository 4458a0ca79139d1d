import Foundation
import Pagination
import Synchronization
import Testing

/// Three pages of a fake collection, recording which pages were asked for.
final class ThreePages: Sendable {
    static let first = URL(string: "http://o.test/p")!
    static let second = URL(string: "http://o.test/p?cursor=b")!
    static let third = URL(string: "http://o.test/p?cursor=c")!
    let asked = Mutex<[URL]>([])
    let failuresLeft = Mutex(0)

    func load(_ url: URL) async throws -> Page<Int> {
        asked.withLock { $0.append(url) }
        if failuresLeft.withLock({ left in defer { left = max(0, left - 1) }; return left > 0 }) {
            throw URLError(.notConnectedToInternet)
        }
        switch url {
        case Self.first: return Page(items: [1, 2], next: Self.second)
        case Self.second: return Page(items: [3, 4], next: Self.third)
        default: return Page(items: [5], next: nil)
        }
    }
}

@Suite("Paginator")
struct PaginatorTests {
    @Test func followsCursorsToTheEnd() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(startingAt: ThreePages.first, loader: source.load)
        while try await paginator.loadNextPage() != nil {}
        #expect(await paginator.items == [1, 2, 3, 4, 5])
        #expect(await paginator.state == .endReached)
        #expect(source.asked.withLock { $0 } == [ThreePages.first, ThreePages.second, ThreePages.third])
        #expect(try await paginator.loadNextPage() == nil)
    }

    @Test func aPaginatorThatDoesNotKeepItemsStillWalksEveryPage() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(startingAt: ThreePages.first, keepsItems: false, loader: source.load)
        var seen: [Int] = []
        while let page = try await paginator.loadNextPage() { seen += page.items }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(await paginator.items.isEmpty)
        #expect(await paginator.pageCount == 3)
    }

    @Test func cancellingTheCallerCancelsTheLoad() async throws {
        let (started, signalStarted) = AsyncStream.makeStream(of: Void.self)
        let paginator = Paginator<Int>(startingAt: ThreePages.first) { _ in
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
        let paginator = Paginator<Int>(startingAt: ThreePages.first, loader: source.load)
        async let first = paginator.loadNextPage()
        async let second = paginator.loadNextPage()
        _ = try await (first, second)
        let asked = source.asked.withLock { $0 }
        #expect(Set(asked).count == asked.count, "no page may be requested twice")
    }

    @Test func failureKeepsThePositionSoTheNextCallRetries() async throws {
        let source = ThreePages()
        source.failuresLeft.withLock { $0 = 1 }
        let paginator = Paginator<Int>(startingAt: ThreePages.first, loader: source.load)
        await #expect(throws: URLError.self) { try await paginator.loadNextPage() }
        if case .failed = await paginator.state {} else { Issue.record("state should be failed") }
        try await paginator.loadNextPage()
        #expect(await paginator.items == [1, 2])
        #expect(source.asked.withLock { $0 } == [ThreePages.first, ThreePages.first])
    }

    @Test func prefetchRuleTriggersNearTheEnd() {
        let rule = PrefetchRule(threshold: 5)
        #expect(!rule.shouldPrefetch(visibleIndex: 10, loadedCount: 20))
        #expect(rule.shouldPrefetch(visibleIndex: 14, loadedCount: 20))
        #expect(rule.shouldPrefetch(visibleIndex: 0, loadedCount: 0))
    }

    @Test func prefetchLoadsOnlyWhenClose() async throws {
        let source = ThreePages()
        let paginator = Paginator<Int>(startingAt: ThreePages.first, loader: source.load)
        try await paginator.loadNextPage()
        try await paginator.prefetchIfNeeded(visibleIndex: 0, rule: PrefetchRule(threshold: 0))
        #expect(await paginator.pageCount == 1)
        try await paginator.prefetchIfNeeded(visibleIndex: 1, rule: PrefetchRule(threshold: 0))
        #expect(await paginator.pageCount == 2)
    }
}

@Suite("Query items and page sizes")
struct QueryItemsTests {
    @Test func settingReplacesTheItemAndKeepsOthers() {
        let base = URL(string: "http://o.test/posts?limit=20&lang=ko")!
        #expect(QueryItems.setting("cursor", to: "abc", in: base).absoluteString == "http://o.test/posts?limit=20&lang=ko&cursor=abc")
        let again = QueryItems.setting("cursor", to: "new", in: URL(string: "http://o.test/posts?cursor=old&limit=5&cursor=x")!)
        #expect(again.absoluteString == "http://o.test/posts?cursor=new&limit=5")
        #expect(QueryItems.setting("limit", to: nil, in: base).absoluteString == "http://o.test/posts?lang=ko")
    }

    @Test func plusSignsAreEncoded() {
        let url = QueryItems.setting("cursor", to: "a+b/c=", in: URL(string: "http://o.test/posts")!)
        #expect(url.absoluteString.hasPrefix("http://o.test/posts?cursor=a%2Bb/c"))
        #expect(QueryItems.value(of: "cursor", in: url) == "a+b/c=")
    }

    @Test func pageSizeGoesToTheParameterTheURLAlreadyHas() {
        let url = URL(string: "http://o.test/a?per_page=5&page=2")!
        #expect(PageSize.url(url, size: 50, parameter: nil).absoluteString == "http://o.test/a?per_page=50&page=2")
        #expect(PageSize.url(URL(string: "http://o.test/a")!, size: 50, parameter: nil).absoluteString == "http://o.test/a?limit=50")
        #expect(PageSize.url(URL(string: "http://o.test/a")!, size: 50, parameter: "take").absoluteString == "http://o.test/a?take=50")
        #expect(PageSize.url(url, size: nil, parameter: nil) == url)
    }
}
