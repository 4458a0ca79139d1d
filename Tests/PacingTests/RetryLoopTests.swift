import HTTPCache
import Pacing
import Synchronization
import Testing

@Suite("Retry loop")
struct RetryLoopTests {
    /// A clock that records each wait and never waits.
    final class RecordedWaits: Sendable {
        private let recorded = Mutex<[Duration]>([])
        var waits: [Duration] { recorded.withLock { $0 } }
        var clock: PacingClock { PacingClock(now: { .now }, sleep: { duration in self.recorded.withLock { $0.append(duration) } }) }
    }

    func loop(retries: Int, _ waits: RecordedWaits, retriesUnreachable: Bool = true) -> RetryLoop {
        RetryLoop(policy: RetryPolicy(retries: retries, retriesUnreachable: retriesUnreachable), clock: waits.clock, random: { 1 })
    }

    @Test func aBackoffIsSleptAndEachRetryIsToldBeforeIt() async throws {
        let waits = RecordedWaits()
        var told: [String] = []
        let answer = try await loop(retries: 3, waits).run { attempt in
            attempt < 3 ? .failed(.status(503)) : .done("page")
        } willRetry: { retry in
            told.append("\(retry.attempt): \(retry.reason) in \(retry.wait)")
        } giveUp: { _ in "given up" }
        #expect(answer == "page")
        #expect(told == ["1: status 503, backing off in 1.0 seconds", "2: status 503, backing off in 2.0 seconds"])
        #expect(waits.waits == [.seconds(1), .seconds(2)])
    }

    @Test func aRateLimitsWaitIsLeftToTheGate() async throws {
        let waits = RecordedWaits()
        var retries: [Bool] = []
        let answer = try await loop(retries: 3, waits).run { attempt in
            attempt == 1 ? .failed(.limited(status: 429, refusal: .retryAfter(.seconds(7)), wait: .seconds(7))) : .done(attempt)
        } willRetry: { retry in
            retries.append(retry.waitsAtGate)
        } giveUp: { _ in 0 }
        #expect(answer == 2 && retries == [true])
        #expect(waits.waits.isEmpty)
    }

    @Test func theEndSaysWhetherRetriesWereLeft() async throws {
        let waits = RecordedWaits()
        var stops: [RetryLoop.Stop] = []
        _ = try await loop(retries: 1, waits).run { _ in RetryLoop.Attempt<Int>.failed(.status(500)) } willRetry: { _ in } giveUp: { stops.append($0); return 0 }
        _ = try await loop(retries: 3, waits).run { _ in RetryLoop.Attempt<Int>.failed(.status(404)) } willRetry: { _ in } giveUp: { stops.append($0); return 0 }
        _ = try await loop(retries: 3, waits, retriesUnreachable: false).run { _ in
            RetryLoop.Attempt<Int>.failed(.unreachable("refused"))
        } willRetry: { _ in } giveUp: { stops.append($0); return 0 }
        #expect(stops.map(\.attempt) == [2, 1, 1])
        #expect(stops.map(\.hadRetriesLeft) == [false, true, true])
        #expect(stops.map(\.reason) == ["status 500 after 2 attempts (--retries 1)", "status 404 is not retried", "refused"])
    }

    @Test func anErrorAnAttemptThrowsEndsTheLoop() async {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await loop(retries: 3, RecordedWaits()).run { _ -> RetryLoop.Attempt<Int> in throw Broken() } willRetry: { _ in } giveUp: { _ in 0 }
        }
    }

    /// One set of transient failures for `get` and `sync`.
    @Test func transportErrorsWorthAnotherTryAreTheSameForEveryCaller() {
        #expect(RetryLoop.failure(of: .timedOut(.seconds(5))) == .transient("timed out after 5 s"))
        #expect(RetryLoop.failure(of: .truncated("response cut short: closed")) == .transient("response cut short: closed"))
        #expect(RetryLoop.failure(of: .failed("reset")) == .transient("transfer failed: reset"))
        #expect(RetryLoop.failure(of: .unreachable("refused")) == .unreachable("cannot reach the server: refused"))
        for error: TransportError in [.invalidURL("x"), .invalidResponse("x"), .bodyTooLarge(limit: 1), .cancelled, .unavailable("x"), .certificate("x")] {
            #expect(RetryLoop.failure(of: error) == nil)
        }
    }
}
