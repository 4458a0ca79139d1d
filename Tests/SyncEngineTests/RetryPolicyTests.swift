import Foundation
import HTTPFields
import SyncEngine
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(retries: 3, maximumWait: .seconds(60), initialBackoff: .seconds(1))

    @Test func serverErrorsBackOffExponentiallyWithJitter() {
        #expect(policy.decide(after: .status(500, retryAfter: nil), attempt: 1, random: 0) == .retry(after: .milliseconds(500), reason: "status 500, backing off"))
        #expect(policy.decide(after: .status(502, retryAfter: nil), attempt: 2, random: 1) == .retry(after: .seconds(2), reason: "status 502, backing off"))
        #expect(policy.decide(after: .transient("reset"), attempt: 3, random: 0.5) == .retry(after: .seconds(3), reason: "reset, backing off"))
        #expect(policy.decide(after: .status(500, retryAfter: nil), attempt: 4, random: 0.5) == .stop(reason: "status 500 after 4 attempts (--retries 3)"))
    }

    @Test func rateLimitsWaitForRetryAfterInSecondsOrAsADate() throws {
        #expect(policy.decide(after: .status(429, retryAfter: "7"), attempt: 1, random: 0) == .retry(after: .seconds(7), reason: "status 429, Retry-After 7 s"))
        let now = try #require(HTTPDate.parse("Mon, 23 Nov 2026 12:00:00 GMT"))
        let decision = policy.decide(after: .status(503, retryAfter: "Mon, 23 Nov 2026 12:00:30 GMT"), attempt: 1, now: now, random: 0)
        #expect(decision == .retry(after: .seconds(30), reason: "status 503, Retry-After 30 s"))
        // A Retry-After that is neither: backs off like any other 503.
        #expect(policy.decide(after: .status(503, retryAfter: "soon"), attempt: 1, random: 0) == .retry(after: .milliseconds(500), reason: "status 503, backing off"))
    }

    @Test func tooLongAWaitStopsRatherThanHanging() {
        #expect(policy.decide(after: .status(429, retryAfter: "3600"), attempt: 1, random: 0)
            == .stop(reason: "status 429: the server asks to wait 3600 s, longer than --max-wait 60 s"))
    }

    @Test func clientErrorsAreNotRetried() {
        for status in [400, 401, 403, 404, 410, 422, 501] {
            #expect(policy.decide(after: .status(status, retryAfter: nil), attempt: 1, random: 0) == .stop(reason: "status \(status) is not retried"))
        }
        #expect(RetryPolicy.isRetryable(status: 408) && RetryPolicy.isRetryable(status: 429) && RetryPolicy.isRetryable(status: 504))
    }

    @Test func noRetriesMeansTheFirstFailureStops() {
        #expect(RetryPolicy(retries: 0).decide(after: .transient("refused"), attempt: 1, random: 0) == .stop(reason: "refused after 1 attempt (--retries 0)"))
    }
}

@Suite("Collection identity and names")
struct CollectionIdentityTests {
    @Test func pagingAndSizeParametersDoNotMakeAnotherCollection() {
        let a = CollectionIdentity.of(URL(string: "HTTP://API.Example.test:80/v1/posts?limit=20&lang=ko&cursor=x")!)
        let b = CollectionIdentity.of(URL(string: "http://me:pw@api.example.test/v1/posts?lang=ko&page=3#top")!)
        #expect(a == b && a == "http://api.example.test/v1/posts?lang=ko")
        #expect(CollectionIdentity.of(URL(string: "http://api.example.test/v1/posts?lang=en")!) != a)
    }

    @Test func namesComeFromTheLastPathSegmentThatIsNotANumber() {
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/v1/users/42/repos?per_page=5")!) == "repos")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/api/posts/")!) == "posts")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/")!) == "x.test")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/data/countries.json")!) == "countries")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/.json")!) == "json")
        #expect(CollectionIdentity.defaultName(for: URL(string: "http://x.test/Some%20Thing")!) == "some-thing")
    }

    @Test func credentialsBecomeAnAuthorizationField() {
        let url = URL(string: "https://me:s3cret@x.test/a")!
        #expect(CollectionIdentity.basicAuthorization(in: url) == "Basic " + Data("me:s3cret".utf8).base64EncodedString())
        #expect(CollectionIdentity.withoutCredentials(url).absoluteString == "https://x.test/a")
        #expect(CollectionIdentity.basicAuthorization(in: URL(string: "https://x.test/a")!) == nil)
    }
}

@Suite("Sync summary")
struct SyncSummaryTests {
    @Test func requestsWithoutAPageOfTheirOwnAreCountedInTheLine() {
        var summary = SyncSummary()
        summary.collection = "posts"
        summary.requests = 13
        summary.fullResponses = 10
        #expect(summary.line.contains("13 requests: 10 × 200, 0 × 304, 0 fresh hits, 3 more (retried, guessed ahead or past the last page);"))
    }

    @Test func theLineCountsInWordsWithPluralsRight() {
        var summary = SyncSummary()
        summary.collection = "posts"
        summary.pages = 1
        summary.totalItems = 1
        summary.requests = 1
        summary.fullResponses = 1
        summary.freshHits = 1
        summary.bytesReceived = 1
        summary.bytesDecoded = 1
        #expect(summary.line == "synced posts: 1 page, 1 item (0 new, 0 changed, 0 removed); 1 request: 1 × 200, 0 × 304, 1 fresh hit; 1 byte received, 0 bytes saved")
        summary.bytesDecoded = 20
        #expect(summary.line.hasSuffix("1 byte received (20 decoded), 0 bytes saved"))
        summary.bytesDecoded = 1
        summary.retries = 2
        summary.secondsWaited = 3
        summary.resumedAtPage = 5
        #expect(summary.line.hasSuffix("; 2 retries after waiting 3.0 s; resumed at page 5"))
    }
}
