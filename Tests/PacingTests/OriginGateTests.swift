import Foundation
import HTTPCache
import HTTPTypes
import Synchronization
import Testing

@testable import Pacing

/// A clock whose sleeps return at once, moving its time on and recording each wait.
final class SteppingClock: Sendable {
    private let state = Mutex((now: ContinuousClock.now, waits: [Duration]()))
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    var clock: PacingClock {
        PacingClock(now: { [self] in state.withLock { $0.now } }, date: { [date] in date }, sleep: { [self] wait in
            state.withLock { state in
                state.waits.append(wait)
                state.now += wait
            }
        })
    }

    var waits: [Duration] { state.withLock { $0.waits } }
}

/// Every wait the gate reported.
final class WaitReports: Sendable {
    private let reports = Mutex<[OriginGate.Wait]>([])
    var report: @Sendable (OriginGate.Wait) -> Void { { [self] wait in reports.withLock { $0.append(wait) } } }
    var all: [OriginGate.Wait] { reports.withLock { $0 } }
}

@Suite("The origin gate: turns, budgets and holds")
struct OriginGateTests {
    let url = URL(string: "http://api.test/items?page=2")!
    let clock = SteppingClock()
    let reports = WaitReports()

    private func response(_ status: Int = 200, _ fields: HTTPFields = [:], body: String = "") -> TransportResponse {
        TransportResponse(status: HTTPResponse.Status(code: status), headerFields: fields, body: Data(body.utf8))
    }

    private func admit(_ gate: OriginGate, maximumWait: Duration = .seconds(600)) async throws {
        try await gate.admit(url, maximumWait: maximumWait, report: reports.report)
    }

    @Test func anOriginGetsAsManyRequestsAtOnceAsItsParallelism() async throws {
        let gate = OriginGate(parallel: 8, clock: clock.clock)
        gate.setParallel(2, for: Origin.of(url))
        try await admit(gate)
        try await admit(gate)
        let third = Task { try await admit(gate) }
        while gate.waiting(at: Origin.of(url)) == 0 { await Task.yield() }
        gate.finish(url, response: response())
        try await third.value
        #expect(gate.waiting(at: Origin.of(url)) == 0 && clock.waits.isEmpty)
    }

    @Test func anOriginThatStatesALimitIsAskedOneRequestAtATime() async throws {
        let gate = OriginGate(parallel: 8, clock: clock.clock)
        #expect(gate.capacity(of: Origin.of(url)) == 8 && !gate.isLimited(Origin.of(url)))
        try await admit(gate)
        gate.finish(url, response: response(200, [.xRateLimitLimit: "5000", .xRateLimitRemaining: "4999", .xRateLimitReset: "1800003600"]))
        #expect(gate.capacity(of: Origin.of(url)) == 1 && gate.isLimited(Origin.of(url)))
    }

    @Test func aSpentBudgetHoldsEveryRequestUntilTheResetAndItIsSaidOnce() async throws {
        let gate = OriginGate(clock: clock.clock)
        try await admit(gate)
        gate.finish(url, response: response(200, [.xRateLimitRemaining: "1", .xRateLimitReset: "1800000040"]))
        try await admit(gate)  // the last request of the budget
        gate.finish(url, response: response(200, [.xRateLimitRemaining: "0", .xRateLimitReset: "1800000040"]))
        try await admit(gate)
        #expect(clock.waits == [.seconds(40)])
        #expect(reports.all.map(\.reason) == [.spentBudget] && reports.all.first?.isFirst == true)
    }

    @Test func requestsInFlightCountAgainstTheBudgetBeforeTheirAnswers() async throws {
        let gate = OriginGate(clock: clock.clock)
        try await admit(gate)
        try await admit(gate)  // sent before the first answer came
        // One left, says the first answer; the second request in flight will take it.
        gate.finish(url, response: response(200, [.xRateLimitRemaining: "1", .xRateLimitReset: "1800000030"]))
        gate.finish(url, response: nil)
        try await admit(gate)
        #expect(clock.waits == [.seconds(30)])
    }

    @Test func retryAfterHoldsTheOriginAndOnlyTheFirstWaiterSaysSo() async throws {
        let gate = OriginGate(parallel: 8, clock: clock.clock)
        try await admit(gate)
        gate.finish(url, response: response(429, [.retryAfter: "5"]))
        try await admit(gate)
        gate.finish(url, response: response())
        try await admit(gate)
        #expect(clock.waits == [.seconds(5)])
        #expect(reports.all.count == 1 && reports.all[0].reason == .retryAfter && reports.all[0].isFirst)
        #expect(gate.isLimited(Origin.of(url)))
    }

    @Test func aHoldLongerThanTheCallerMayWaitFailsAtOnce() async throws {
        let gate = OriginGate(clock: clock.clock)
        try await admit(gate)
        gate.finish(url, response: response(403, [.xRateLimitRemaining: "0", .xRateLimitReset: "1800003000"]))
        await #expect(throws: PacingError.waitTooLong(url: url, wait: .seconds(3000), reason: .spentBudget, maximumWaitName: "--max-wait")) {
            try await admit(gate, maximumWait: .seconds(120))
        }
        #expect(clock.waits.isEmpty && gate.hold(of: Origin.of(url)) == .seconds(3000))
    }

    @Test func aLimitThatStatesNoWaitHoldsAMinuteThenTwoUntilARequestSucceeds() async throws {
        let gate = OriginGate(clock: clock.clock)
        let secondary = #"{"message":"You have exceeded a secondary rate limit."}"#
        try await admit(gate)
        gate.finish(url, response: response(403, body: secondary))
        try await admit(gate)
        gate.finish(url, response: response(403, body: secondary))
        try await admit(gate)
        gate.finish(url, response: response(200))
        try await admit(gate)
        gate.finish(url, response: response(403, body: secondary))
        try await admit(gate)
        #expect(clock.waits == [.seconds(60), .seconds(120), .seconds(60)])
    }

    /// Six requests in flight when the first refusal comes (a re-sync's lookahead): all six are
    /// refused, but as one refusal: the hold is a minute, not a minute doubled five times.
    @Test func refusalsOfRequestsAlreadyInFlightDoNotDoubleTheWait() async throws {
        let gate = OriginGate(parallel: 8, clock: clock.clock)
        let secondary = #"{"message":"You have exceeded a secondary rate limit."}"#
        for _ in 1...6 { try await admit(gate) }
        for _ in 1...6 { gate.finish(url, response: response(403, body: secondary)) }
        #expect(gate.hold(of: Origin.of(url)) == .seconds(60))
        try await admit(gate)
        gate.finish(url, response: response(403, body: secondary))
        try await admit(gate)
        #expect(clock.waits == [.seconds(60), .seconds(120)])
    }

    @Test func aPermissionRefusalHoldsNothing() async throws {
        let gate = OriginGate(clock: clock.clock)
        try await admit(gate)
        gate.finish(url, response: response(403, body: #"{"message":"Must have admin rights"}"#))
        try await admit(gate)
        #expect(clock.waits.isEmpty && !gate.isLimited(Origin.of(url)))
    }

    @Test func originsAreHeldApart() async throws {
        let gate = OriginGate(clock: clock.clock)
        try await admit(gate)
        gate.finish(url, response: response(429, [.retryAfter: "30"]))
        try await gate.admit(URL(string: "https://api.test/items")!, maximumWait: .seconds(60), report: reports.report)
        try await gate.admit(URL(string: "http://other.test/items")!, maximumWait: .seconds(60), report: reports.report)
        #expect(clock.waits.isEmpty)
    }
}
