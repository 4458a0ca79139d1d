import Foundation
import HTTPCache
import HTTPTypes
import Testing

@Suite("Cache policies (URLRequest.CachePolicy)")
struct CachePolicyTests {
    func storedHarness(maxAge: Int = 60) async throws -> Harness {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=\(maxAge)", "ETag": #""x""#], body: "stored") }
        _ = try await harness.get()
        return harness
    }

    @Test func reloadIgnoringLocalCacheDataDownloadsEvenWhenFresh() async throws {
        let harness = try await storedHarness()
        let answer = try await harness.get(policy: .reloadIgnoringLocalCacheData)
        #expect(answer.decision.outcome == .bypassed)
        #expect(answer.decision.reasons.first == "policy reload ignores stored data")
        #expect(harness.transport.requests.count == 2)
        #expect(harness.transport.requests[1].headerFields[.ifNoneMatch] == nil)
    }

    @Test func reloadIgnoringLocalAndRemoteSendsNoCache() async throws {
        let harness = try await storedHarness()
        _ = try await harness.get(policy: .reloadIgnoringLocalAndRemoteCacheData)
        #expect(harness.transport.requests[1].headerFields[.cacheControl] == "no-cache")
        #expect(harness.transport.requests[1].headerFields[.pragma] == "no-cache")
    }

    @Test func reloadRevalidatingAlwaysAsksEvenWhenFresh() async throws {
        let harness = try await storedHarness()
        harness.transport.answer { _ in response(.notModified, ["ETag": #""x""#]) }
        let answer = try await harness.get(policy: .reloadRevalidatingCacheData)
        #expect(answer.decision.outcome == .revalidated)
        #expect(harness.transport.requests[1].headerFields[.ifNoneMatch] == #""x""#)
    }

    @Test func immutableFreshResponseIsNotRevalidatedOnReload() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=600, immutable", "ETag": #""i""#], body: "asset") }
        _ = try await harness.get()
        let reload = try await harness.get(policy: .reloadRevalidatingCacheData)
        #expect(reload.decision.outcome == .freshHit)
        #expect(harness.transport.requests.count == 1)
        harness.clock.advance(601)
        harness.transport.answer { _ in response(.notModified, ["ETag": #""i""#]) }
        #expect(try await harness.get(policy: .reloadRevalidatingCacheData).decision.outcome == .revalidated)
    }

    @Test func returnCacheDataElseLoadUsesStaleDataAndLoadsWhenMissing() async throws {
        let harness = try await storedHarness(maxAge: 1)
        harness.clock.advance(1000)
        let stale = try await harness.get(policy: .returnCacheDataElseLoad)
        #expect(stale.body == Data("stored".utf8))
        #expect(harness.transport.requests.count == 1)
        _ = try await harness.get("http://origin.test/other", policy: .returnCacheDataElseLoad)
        #expect(harness.transport.requests.count == 2)
    }

    @Test func returnCacheDataDontLoadNeverTouchesTheNetwork() async throws {
        let harness = try await storedHarness(maxAge: 1)
        harness.clock.advance(1000)
        _ = try await harness.get(policy: .returnCacheDataDontLoad)
        await #expect(throws: CacheError.notStored("http://origin.test/missing")) {
            try await harness.get("http://origin.test/missing", policy: .returnCacheDataDontLoad)
        }
        #expect(harness.transport.requests.count == 1)
    }

    @Test func policiesHaveShortNamesForTheCLI() {
        #expect(CachePolicy(name: "cache-only") == .returnCacheDataDontLoad)
        #expect(CachePolicy(name: "reloadRevalidatingCacheData") == .reloadRevalidatingCacheData)
        #expect(CachePolicy(name: "nonsense") == nil)
    }

    @Test func explainSaysHowLongAnEntryStaysFreshAndHowItWouldRevalidate() async throws {
        let harness = try await storedHarness()
        harness.clock.advance(18)
        let url = URL(string: "http://origin.test/posts?limit=2")!
        #expect(try harness.client.explain(url: url) == ["would answer from storage: fresh for 42 s more: max-age=60, age=18"])
        harness.clock.advance(60)
        let stale = try harness.client.explain(url: url)
        #expect(stale.contains(#"would revalidate with If-None-Match "x""#))
    }
}
