import Pagination
import Testing

@Suite("Prefetch: the next page before the end, never twice at once")
struct PrefetchTests {
    /// What a mutating question of the rule answers (`#expect` cannot mutate what it reads).
    func asks(_ rule: inout Prefetch, _ question: (inout Prefetch) -> Bool) -> Bool {
        question(&rule)
    }

    @Test func asksOnlyWithinItsDistanceOfTheEnd() {
        var rule = Prefetch(distance: 3)
        #expect(!asks(&rule) { $0.startIfNear(selected: 5, loaded: 10, hasMore: true) })
        #expect(rule.state == .idle)
        #expect(asks(&rule) { $0.startIfNear(selected: 6, loaded: 10, hasMore: true) })
        #expect(rule.state == .loading)
    }

    @Test func neverAsksAgainWhileAPageIsOnItsWay() {
        var rule = Prefetch(distance: 3)
        #expect(asks(&rule) { $0.startIfNear(selected: 9, loaded: 10, hasMore: true) })
        #expect(!asks(&rule) { $0.startIfNear(selected: 9, loaded: 10, hasMore: true) })
        rule.finished(failure: nil)
        #expect(rule.state == .idle)
        #expect(asks(&rule) { $0.startIfNear(selected: 19, loaded: 20, hasMore: true) })
    }

    @Test func aFailedLoadWaitsForARetry() {
        var rule = Prefetch(distance: 3)
        #expect(!asks(&rule) { $0.retry() })
        #expect(asks(&rule) { $0.startIfNear(selected: 9, loaded: 10, hasMore: true) })
        rule.finished(failure: "offline")
        #expect(rule.state == .failed("offline"))
        #expect(!asks(&rule) { $0.startIfNear(selected: 9, loaded: 10, hasMore: true) })
        #expect(asks(&rule) { $0.retry() })
        #expect(rule.state == .loading)
        #expect(!asks(&rule) { $0.retry() })
    }

    @Test func nothingIsAskedWhenNoPageFollows() {
        var rule = Prefetch(distance: 3)
        #expect(!asks(&rule) { $0.startIfNear(selected: 9, loaded: 10, hasMore: false) })
    }

    @Test func anEmptyListAsksAtOnce() {
        var rule = Prefetch(distance: 0)
        #expect(asks(&rule) { $0.startIfNear(selected: 0, loaded: 0, hasMore: true) })
    }
}
