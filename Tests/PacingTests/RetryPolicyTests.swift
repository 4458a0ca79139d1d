import Foundation
import HTTPFields
import Pacing
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(retries: 3, maximumWait: .seconds(60), initialBackoff: .seconds(1))

    @Test func serverErrorsBackOffExponentiallyWithJitter() {
        #expect(policy.decide(after: .status(500), attempt: 1, random: 0) == .retry(after: .milliseconds(500), reason: "status 500, backing off"))
        #expect(policy.decide(after: .status(502), attempt: 2, random: 1) == .retry(after: .seconds(2), reason: "status 502, backing off"))
        #expect(policy.decide(after: .transient("reset"), attempt: 3, random: 0.5) == .retry(after: .seconds(3), reason: "reset, backing off"))
        #expect(policy.decide(after: .status(500), attempt: 4, random: 0.5) == .stop(reason: "status 500 after 4 attempts (--retries 3)"))
        // A 429 that no field explains backs off like a 5xx.
        #expect(policy.decide(after: .status(429), attempt: 1, random: 0) == .retry(after: .milliseconds(500), reason: "status 429, backing off"))
    }

    @Test func aRefusalByARateLimitWaitsAsLongAsTheOriginIsHeld() {
        let refusal = RetryPolicy.failure(status: 429, refusal: .retryAfter(.seconds(7)), hold: .seconds(7))
        #expect(policy.decide(after: refusal, attempt: 1, random: 0) == .retry(after: .seconds(7), reason: "status 429, Retry-After 7 s"))
        let spent = RetryPolicy.failure(status: 403, refusal: .spentBudget(resetIn: .seconds(40)), hold: .seconds(40))
        #expect(policy.decide(after: spent, attempt: 1, random: 0) == .retry(after: .seconds(40), reason: "status 403, the stated rate limit is spent"))
        #expect(RetryPolicy.failure(status: 403, refusal: nil, hold: .zero) == .status(403))
    }

    @Test func tooLongAWaitStopsRatherThanHanging() {
        let refusal = RetryPolicy.failure(status: 429, refusal: .retryAfter(.seconds(3600)), hold: .seconds(3600))
        #expect(policy.decide(after: refusal, attempt: 1, random: 0)
            == .stop(reason: "status 429, Retry-After 3600 s: the server asks to wait 3600 s, longer than --max-wait 60 s"))
    }

    @Test func clientErrorsAreNotRetried() {
        for status in [400, 401, 403, 404, 410, 422, 501] {
            #expect(policy.decide(after: .status(status), attempt: 1, random: 0) == .stop(reason: "status \(status) is not retried"))
        }
        #expect(RetryPolicy.isRetryable(status: 408) && RetryPolicy.isRetryable(status: 429) && RetryPolicy.isRetryable(status: 504))
    }

    @Test func noRetriesMeansTheFirstFailureStops() {
        #expect(RetryPolicy(retries: 0).decide(after: .transient("refused"), attempt: 1, random: 0) == .stop(reason: "refused after 1 attempt (--retries 0)"))
    }

    @Test func anUnreachableServerIsTriedAgainUnlessTheCallerSaysOtherwise() {
        #expect(policy.decide(after: .unreachable("connection refused"), attempt: 1, random: 0)
            == .retry(after: .milliseconds(500), reason: "connection refused, backing off"))
        let atOnce = RetryPolicy(retries: 3, retriesUnreachable: false)
        #expect(atOnce.decide(after: .unreachable("connection refused"), attempt: 1, random: 0) == .stop(reason: "connection refused"))
        #expect(atOnce.decide(after: .transient("timed out"), attempt: 1, random: 0) == .retry(after: .milliseconds(500), reason: "timed out, backing off"))
    }
}
