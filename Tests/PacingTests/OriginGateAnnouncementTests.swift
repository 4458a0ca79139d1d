import Foundation
import HTTPCache
import HTTPTypes
import Synchronization
import Testing
@testable import Pacing

@Suite("The origin gate: each wait said once")
struct OriginGateAnnouncementTests {
    @Test func eachNewResetOfASpentBudgetIsSaidAgain() async throws {
        let clock = SteppingClock()
        let reports = WaitReports()
        let gate = OriginGate(clock: clock.clock)
        let url = URL(string: "http://api.test/items")!
        for reset in ["1800000040", "1800000100"] {
            try await gate.admit(url, maximumWait: .seconds(600), report: reports.report)
            gate.finish(url, response: TransportResponse(status: .ok, headerFields: [.xRateLimitRemaining: "0", .xRateLimitReset: reset]))
        }
        try await gate.admit(url, maximumWait: .seconds(600), report: reports.report)
        #expect(reports.all.map(\.isFirst) == [true, true])
    }
}
