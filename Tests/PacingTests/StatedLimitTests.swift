import Foundation
import HTTPFields
import HTTPTypes
import Pacing
import Testing

@Suite("What responses state about rate limits")
struct StatedLimitTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func githubFieldsGiveTheBudgetAndAResetInEpochSeconds() {
        let limit = StatedLimit(fields: [.xRateLimitLimit: "60", .xRateLimitRemaining: "0", .xRateLimitReset: "1800000040"], now: now)
        #expect(limit == StatedLimit(remaining: 0, resetIn: .seconds(40), isStated: true) && limit.isSpent)
        // Some APIs send seconds from now in the same field.
        #expect(StatedLimit(fields: [.xRateLimitRemaining: "5", .xRateLimitReset: "30"], now: now).resetIn == .seconds(30))
    }

    @Test func theServersDateCorrectsAClockThatIsOff() {
        let fields: HTTPFields = [.xRateLimitRemaining: "0", .xRateLimitReset: "1800000040",
                                  .date: HTTPDate.format(now.addingTimeInterval(-100))]
        #expect(StatedLimit(fields: fields, now: now).resetIn == .seconds(140))
    }

    @Test(arguments: [
        ("\"default\";r=0;t=30", 0, 30), ("\"burst\";r=5;t=1, \"daily\";r=0;t=3600", 0, 3600), ("limit=10, remaining=3, reset=20", 3, 20),
    ])
    func ietfFieldsOfEveryDraftAreRead(field: String, remaining: Int, reset: Int) {
        let limit = StatedLimit(fields: [.rateLimit: field], now: now)
        #expect(limit.remaining == remaining && limit.resetIn == .seconds(reset) && limit.isStated)
    }

    @Test func earlyDraftFieldsAndAPolicyAloneAreStatedLimits() {
        let early = StatedLimit(fields: [.rateLimitRemaining: "2", .rateLimitReset: "9"], now: now)
        #expect(early.remaining == 2 && early.resetIn == .seconds(9))
        let policy = StatedLimit(fields: [.rateLimitPolicy: "\"default\";q=100;w=60"], now: now)
        #expect(policy.isStated && policy.remaining == nil)
        #expect(!StatedLimit(fields: [.contentType: "application/json"], now: now).isStated)
    }

    @Test func retryAfterIsSecondsOrADate() {
        #expect(StatedLimit(fields: [.retryAfter: "7"], now: now).retryAfter == .seconds(7))
        #expect(StatedLimit(fields: [.retryAfter: HTTPDate.format(now.addingTimeInterval(30))], now: now).retryAfter == .seconds(30))
        #expect(StatedLimit(fields: [.retryAfter: "soon"], now: now).retryAfter == nil)
    }

    @Test func refusalsAreRetryAfterASpentBudgetOrALimitThatStatesNothing() {
        let body = Data(#"{"message":"You have exceeded a secondary rate limit."}"#.utf8)
        #expect(Refusal.of(status: 403, limit: StatedLimit(retryAfter: .seconds(3)), body: Data()) == .retryAfter(.seconds(3)))
        #expect(Refusal.of(status: 503, limit: StatedLimit(retryAfter: .seconds(3)), body: Data()) == .retryAfter(.seconds(3)))
        #expect(Refusal.of(status: 403, limit: StatedLimit(remaining: 0, resetIn: .seconds(9)), body: Data()) == .spentBudget(resetIn: .seconds(9)))
        #expect(Refusal.of(status: 403, limit: StatedLimit(), body: body) == .unstatedLimit)
        // A 403 that says nothing of a limit is a permission: no refusal by a limit.
        #expect(Refusal.of(status: 403, limit: StatedLimit(), body: Data(#"{"message":"Resource not accessible"}"#.utf8)) == nil)
        #expect(Refusal.of(status: 503, limit: StatedLimit(), body: body) == nil)
        #expect(Refusal.of(status: 404, limit: StatedLimit(retryAfter: .seconds(3)), body: Data()) == nil)
    }
}
