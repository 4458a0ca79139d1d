import Foundation
import HTTPCache
import HTTPTypes
import Testing

/// Behaviour an outside HTTP-cache conformance suite checks and earlier versions got wrong.
@Suite("CachingClient: conformance")
struct ConformanceTests {
    @Test func hopByHopFieldsAreNeitherStoredNorReplayed() async throws {
        let harness = Harness { _ in
            response(.ok, [
                "Cache-Control": "max-age=60", "Connection": "close, X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
                "TE": "trailers", "Transfer-Encoding": "chunked", "Upgrade": "h2c", "Proxy-Authenticate": "Basic",
                "X-End": "kept",
            ], body: "page")
        }
        _ = try await harness.get()
        let hit = try await harness.get()
        #expect(hit.decision.outcome == .freshHit)
        let names = Set(hit.headerFields.map(\.name.canonicalName))
        #expect(names.isDisjoint(with: ["connection", "x-hop", "keep-alive", "te", "transfer-encoding", "upgrade", "proxy-authenticate"]))
        #expect(hit.headerFields[HTTPField.Name("X-End")!] == "kept")
    }

    @Test func hopByHopFieldsOfA304DoNotReachTheStoredResponse() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] != nil
                ? response(.notModified, ["Cache-Control": "max-age=60", "ETag": #""v1""#, "Keep-Alive": "timeout=5"])
                : response(.ok, ["Cache-Control": "max-age=0", "ETag": #""v1""#], body: "page")
        }
        _ = try await harness.get()
        #expect(try await harness.get().decision.outcome == .revalidated)
        let hit = try await harness.get()
        #expect(hit.decision.outcome == .freshHit)
        #expect(hit.headerFields[HTTPField.Name("Keep-Alive")!] == nil)
    }

    @Test func a304WithAChangedETagIsRetriedOnceWithoutConditions() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] != nil
                ? response(.notModified, ["Cache-Control": "max-age=60", "ETag": #""v2""#])
                : response(.ok, ["Cache-Control": "max-age=0", "ETag": #""v1""#], body: "page")
        }
        _ = try await harness.get()
        harness.transport.answer { request in
            request.headerFields[.ifNoneMatch] != nil
                ? response(.notModified, ["Cache-Control": "max-age=60", "ETag": #""v2""#])
                : response(.ok, ["Cache-Control": "max-age=60", "ETag": #""v2""#], body: "new page")
        }
        let answer = try await harness.get()
        #expect(answer.body == Data("new page".utf8))
        #expect(answer.decision.requestsSent == 2)
        #expect(answer.decision.reasons.contains { $0.contains("matches nothing stored: retried once without conditions") })
        let retry = harness.transport.requests[2]
        #expect(retry.headerFields[.ifNoneMatch] == nil && retry.headerFields[.ifModifiedSince] == nil)
        #expect(try await harness.get().decision.outcome == .freshHit)
    }

    @Test func a304ToARequestWithoutValidatorsIsRetriedOnceThenFails() async throws {
        let harness = Harness { _ in response(.notModified) }
        await #expect(throws: CacheError.unexpectedNotModified("http://origin.test/posts?limit=2")) { try await harness.get() }
        #expect(harness.transport.requests.count == 2)

        let recovering = Harness { _ in response(.notModified) }
        let transport = recovering.transport
        transport.answer { _ in
            transport.answer { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "page") }
            return response(.notModified)
        }
        let answer = try await recovering.get()
        #expect(answer.body == Data("page".utf8))
        #expect(answer.decision.requestsSent == 2)
    }

    @Test func anUnquotedETagIsSentBackAsTheServerWroteIt() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == "abc"
                ? response(.notModified, ["ETag": "abc"])
                : response(.ok, ["Cache-Control": "max-age=0", "ETag": "abc"], body: "page")
        }
        _ = try await harness.get()
        let revalidated = try await harness.get()
        #expect(harness.transport.requests[1].headerFields[.ifNoneMatch] == "abc")
        #expect(revalidated.decision.outcome == .revalidated)
        #expect(revalidated.body == Data("page".utf8))
    }

    @Test(arguments: [299, 499, 599])
    func anUnusualFinalStatusWithExplicitFreshnessIsStored(_ code: Int) async throws {
        let harness = Harness { _ in response(HTTPResponse.Status(code: code), ["Cache-Control": "max-age=60"], body: "odd") }
        _ = try await harness.get()
        let hit = try await harness.get()
        #expect(hit.decision.outcome == .freshHit)
        #expect(hit.status.code == code)

        let withoutFreshness = Harness { _ in response(HTTPResponse.Status(code: code), body: "odd") }
        let first = try await withoutFreshness.get()
        #expect(first.decision.notStoredReason == "status \(code) needs explicit freshness (max-age or Expires) to be stored")
    }
}
