import Foundation
import HTTPCache
import HTTPFields
import HTTPTypes
import Testing

@Suite("Freshness lifetime and current age (RFC 9111 §4.2)")
struct FreshnessTests {
    let received = Date(timeIntervalSince1970: 1_700_000_000)

    func entry(_ fields: [String: String], status: HTTPResponse.Status = .ok, requestDelay: TimeInterval = 0) -> StoredResponse {
        var headerFields = HTTPFields()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return StoredResponse(key: "GET http://o.test/", variantKey: "", url: URL(string: "http://o.test/")!, method: .get,
                              status: status, headerFields: headerFields, body: Data(),
                              requestTime: received.addingTimeInterval(-requestDelay), responseTime: received)
    }

    @Test func maxAgeWinsOverExpires() {
        let lifetime = FreshnessLifetime.of(entry(["Cache-Control": "max-age=60", "Expires": HTTPDate.format(received.addingTimeInterval(3600)), "Date": HTTPDate.format(received)]))
        #expect(lifetime == FreshnessLifetime(seconds: 60, source: .maxAge))
    }

    @Test func expiresMinusDate() {
        let lifetime = FreshnessLifetime.of(entry(["Expires": HTTPDate.format(received.addingTimeInterval(300)), "Date": HTTPDate.format(received)]))
        #expect(lifetime == FreshnessLifetime(seconds: 300, source: .expires))
    }

    /// An invalid or doubled `max-age` counts as 0, and the explanation says so rather than
    /// quoting a `max-age=0` the server never sent.
    @Test(arguments: ["max-age=abc", "max-age=-5", "max-age=60, max-age=120"])
    func anInvalidMaxAgeMeansStaleAndIsSaidSo(_ value: String) {
        let stored = entry(["Cache-Control": value, "Date": HTTPDate.format(received)])
        #expect(FreshnessLifetime.of(stored) == FreshnessLifetime(seconds: 0, source: .invalidMaxAge))
        #expect(StoredResponseEvaluation(entry: stored, now: received).summary == "stale by 0 s: invalid max-age (treated as 0), age=0")
    }

    @Test func invalidExpiresMeansStale() {
        let lifetime = FreshnessLifetime.of(entry(["Expires": "0", "Last-Modified": HTTPDate.format(received.addingTimeInterval(-86_400))]))
        #expect(lifetime == FreshnessLifetime(seconds: 0, source: .invalidExpires))
    }

    @Test func heuristicIsTenPercentOfTheTimeSinceLastModified() {
        let lifetime = FreshnessLifetime.of(entry(["Date": HTTPDate.format(received), "Last-Modified": HTTPDate.format(received.addingTimeInterval(-10_000))]))
        #expect(lifetime == FreshnessLifetime(seconds: 1000, source: .heuristic))
    }

    @Test func noHeuristicForStatusesThatAreNotHeuristicallyCacheable() {
        let lifetime = FreshnessLifetime.of(entry(["Last-Modified": HTTPDate.format(received.addingTimeInterval(-10_000))], status: .created))
        #expect(lifetime.source == .none)
    }

    @Test func ageCountsAgeHeaderResponseDelayAndResidentTime() {
        let stored = entry(["Date": HTTPDate.format(received), "Age": "30"], requestDelay: 2)
        // corrected_initial_age = max(apparent 0, 30 + 2) = 32; resident 10 s
        #expect(CurrentAge.of(stored, now: received.addingTimeInterval(10)) == 42)
    }

    @Test func apparentAgeFromAnOldDateHeader() {
        let stored = entry(["Date": HTTPDate.format(received.addingTimeInterval(-50))])
        #expect(CurrentAge.of(stored, now: received) == 50)
    }

    @Test func malformedAgeIsIgnored() {
        let stored = entry(["Date": HTTPDate.format(received), "Age": "soon"])
        #expect(CurrentAge.of(stored, now: received.addingTimeInterval(5)) == 5)
    }

    /// RFC 9111 §5.1: `Age` sent as a list (two lines joined by a proxy) counts by its first value.
    @Test func ageSentAsAListCountsByItsFirstValue() {
        let stored = entry(["Date": HTTPDate.format(received), "Age": "7200, 0", "Cache-Control": "max-age=3600"])
        #expect(CurrentAge.of(stored, now: received) == 7200)
        #expect(!StoredResponseEvaluation(entry: stored, now: received).isFresh)
    }

    /// RFC 9111 §5.3: an `Expires` that is not an HTTP-date means already expired.
    @Test(arguments: ["Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Fri, 18 Aug 2050 02:01:18 GMT"])
    func invalidExpiresMeansExpired(_ expires: String) {
        let lifetime = FreshnessLifetime.of(entry(["Expires": expires, "Date": HTTPDate.format(received)]))
        #expect(lifetime.seconds == 0)
        #expect(lifetime.source == .invalidExpires)
    }

    @Test func evaluationSaysHowLongItStaysFresh() {
        let evaluation = StoredResponseEvaluation(entry: entry(["Cache-Control": "max-age=60", "Date": HTTPDate.format(received)]), now: received.addingTimeInterval(18))
        #expect(evaluation.isFresh)
        #expect(evaluation.summary == "fresh for 42 s more: max-age=60, age=18")
    }
}
