import Foundation
import HTTPCache
import HTTPTypes
import Testing

/// The less travelled corners of RFC 9111, RFC 5861 and RFC 9110 redirects: where a
/// looser reading would send a request the caller ruled out or serve data it did not ask for.
@Suite("CachingClient: boundaries of the rules")
struct CachingClientBoundaryTests {
    private static let stored = ["Cache-Control": "max-age=60", "ETag": #""v1""#]

    @Test func cacheOnlyAnswersTheCallersOwnConditionalRequestFromStorage() async throws {
        let harness = Harness { _ in response(.ok, Self.stored, body: "page") }
        _ = try await harness.get()
        harness.clock.advance(600)
        let answer = try await harness.get(headers: ["If-None-Match": #""v0""#], policy: .returnCacheDataDontLoad)
        #expect(answer.body == Data("page".utf8))
        #expect(harness.transport.requests.count == 1)
    }

    @Test func onlyIfCachedAnswersTheCallersOwnConditionalRequestFromStorage() async throws {
        let harness = Harness { _ in response(.ok, Self.stored, body: "page") }
        _ = try await harness.get()
        let answer = try await harness.get(headers: ["If-None-Match": #""v0""#, "Cache-Control": "only-if-cached"])
        #expect(answer.decision.outcome == .freshHit)
        #expect(harness.transport.requests.count == 1)
    }

    @Test func a304ToTheCallersOwnConditionalRequestRenewsTheStoredResponse() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""v1""# ? response(.notModified, Self.stored) : response(.ok, Self.stored, body: "page")
        }
        _ = try await harness.get()
        harness.clock.advance(600)
        let own = try await harness.get(headers: ["If-None-Match": #""v1""#])
        #expect(own.status == .notModified && own.body.isEmpty)
        let next = try await harness.get()
        #expect(next.decision.outcome == .freshHit)
        #expect(next.body == Data("page".utf8))
        #expect(harness.transport.requests.count == 2)
    }

    @Test func a304ThatNamesAnotherETagRenewsNothing() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""v0""#
                ? response(.notModified, ["Cache-Control": "max-age=60", "ETag": #""v0""#])
                : response(.ok, Self.stored, body: "page")
        }
        _ = try await harness.get()
        harness.clock.advance(600)
        _ = try await harness.get(headers: ["If-None-Match": #""v0""#])
        let next = try await harness.get()
        #expect(next.decision.outcome != .freshHit)
        #expect(harness.transport.requests.count == 3)
    }

    @Test func storageOnlyIsThePolicyOrOnlyIfCached() {
        let url = URL(string: "http://origin.test/a")!
        let plain = TransportRequest(method: .get, url: url)
        let onlyIfCached = TransportRequest(method: .get, url: url, headerFields: [.cacheControl: "max-age=5, only-if-cached"])
        #expect(CachingClient.answersFromStorageOnly(plain, policy: .returnCacheDataDontLoad))
        #expect(CachingClient.answersFromStorageOnly(onlyIfCached, policy: .useProtocolCachePolicy))
        #expect(!CachingClient.answersFromStorageOnly(plain, policy: .returnCacheDataElseLoad))
    }

    @Test func cacheOnlyNeverSendsAnUnsafeRequest() async throws {
        let harness = Harness { _ in response(.ok) }
        let post = TransportRequest(method: .post, url: URL(string: "http://origin.test/posts")!, body: Data("{}".utf8))
        await #expect(throws: CacheError.notStored("http://origin.test/posts")) {
            try await harness.client.send(post, policy: .returnCacheDataDontLoad)
        }
        var onlyIfCached = post
        onlyIfCached.headerFields[.cacheControl] = "only-if-cached"
        #expect(try await harness.client.send(onlyIfCached).status == .gatewayTimeout)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test(arguments: ["max-age=0", "min-fresh=5", "max-stale=10"])
    func requestAgeBoundsTurnStaleWhileRevalidateIntoARevalidation(directive: String) async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""v1""#
                ? response(.notModified, ["ETag": #""v1""#])
                : response(.ok, ["Cache-Control": "max-age=60, stale-while-revalidate=600", "ETag": #""v1""#], body: "page")
        }
        _ = try await harness.get()
        harness.clock.advance(90)
        let answer = try await harness.get(headers: ["Cache-Control": directive])
        #expect(answer.decision.outcome == .revalidated)
        #expect(harness.transport.requests.count == 2)
    }

    @Test func immutableDoesNotExcuseNoCacheFromRevalidation() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""i""#
                ? response(.notModified, ["ETag": #""i""#])
                : response(.ok, ["Cache-Control": "max-age=3600, immutable, no-cache", "ETag": #""i""#], body: "page")
        }
        _ = try await harness.get()
        let answer = try await harness.get(policy: .reloadRevalidatingCacheData)
        #expect(answer.decision.outcome == .revalidated)
    }

    @Test func a304WithoutAgeLeavesNoOldAgeBehind() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""a""#
                ? response(.notModified, ["ETag": #""a""#])
                : response(.ok, ["Cache-Control": "max-age=3600", "Age": "3000", "ETag": #""a""#], body: "page")
        }
        _ = try await harness.get()
        harness.clock.advance(700)
        #expect(try await harness.get().decision.outcome == .revalidated)
        harness.clock.advance(1000)
        let later = try await harness.get()
        #expect(later.decision.outcome == .freshHit)
        #expect(later.headerFields[.age] == "1000")
    }

    @Test func aMethodOfUnknownSafetyInvalidates() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "doc") }
        _ = try await harness.get("http://origin.test/doc")
        harness.transport.answer { _ in response(.noContent) }
        _ = try await harness.client.send(TransportRequest(method: HTTPRequest.Method("PURGE")!, url: URL(string: "http://origin.test/doc")!))
        harness.transport.answer { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "doc") }
        #expect(try await harness.get("http://origin.test/doc").decision.outcome == .downloaded)
    }

    @Test(arguments: [(HTTPRequest.Method.delete, 302, HTTPRequest.Method.delete), (.put, 301, .put), (.post, 302, .get), (.delete, 303, .get), (.head, 303, .head)])
    func redirectsChangeOnlyTheMethodsRFC9110Allows(method: HTTPRequest.Method, status: Int, followedWith expected: HTTPRequest.Method) async throws {
        let harness = Harness { request in
            request.url.path == "/from" ? response(HTTPResponse.Status(code: status), ["Location": "/to"]) : response(.noContent)
        }
        _ = try await harness.client.send(TransportRequest(method: method, url: URL(string: "http://origin.test/from")!))
        #expect(harness.transport.requests.map(\.method) == [method, expected])
    }

    @Test func staleIfErrorDoesNotHideA501() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10, stale-if-error=600", "ETag": #""e""#], body: "good") }
        _ = try await harness.get()
        harness.clock.advance(60)
        harness.transport.answer { _ in response(.badGateway, body: "bad") }
        #expect(try await harness.get().decision.outcome == .staleServed(.onError(status: 502)))
        harness.transport.answer { _ in response(.notImplemented, body: "no") }
        #expect(try await harness.get().status == .notImplemented)
    }
}
