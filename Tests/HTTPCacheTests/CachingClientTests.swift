import Foundation
import HTTPCache
import HTTPTypes
import Testing

@Suite("CachingClient: RFC 9111 behaviour")
struct CachingClientTests {
    @Test func freshEntryIsAnsweredWithoutARequest() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "ETag": #""v1""#], body: "page") }
        _ = try await harness.get()
        harness.clock.advance(30)
        let second = try await harness.get()
        #expect(harness.transport.requests.count == 1)
        #expect(second.decision.outcome == .freshHit)
        #expect(second.body == Data("page".utf8))
        #expect(second.headerFields[.age] == "30")
    }

    @Test func staleEntryIsRevalidatedWithIfNoneMatchAndA304ReturnsTheStoredBody() async throws {
        let harness = Harness { request in
            if request.headerFields[.ifNoneMatch] == #""v1""# {
                return response(.notModified, ["Cache-Control": "max-age=60", "ETag": #""v1""#, "X-Renewed": "yes"])
            }
            return response(.ok, ["Cache-Control": "max-age=60", "ETag": #""v1""#, "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"], body: "page")
        }
        _ = try await harness.get()
        harness.clock.advance(61)
        let revalidated = try await harness.get()
        #expect(revalidated.decision.outcome == .revalidated)
        #expect(revalidated.body == Data("page".utf8))
        #expect(revalidated.decision.bytesSaved == 4)
        #expect(revalidated.headerFields[HTTPField.Name("X-Renewed")!] == "yes")
        let conditional = harness.transport.requests[1]
        #expect(conditional.headerFields[.ifModifiedSince] == "Sun, 06 Nov 1994 08:49:37 GMT")
        // Freshness renewed: the next request is a fresh hit.
        let third = try await harness.get()
        #expect(third.decision.outcome == .freshHit)
        #expect(harness.transport.requests.count == 2)
    }

    /// A 304 saying `no-store` answers this request with the stored body, and the stored
    /// response is removed (RFC 9111 §3): renewed, it went on answering, offline too.
    @Test func a304WithNoStoreRemovesTheStoredResponse() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=0", "ETag": #""v1""#], body: "page") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.notModified, ["Cache-Control": "no-store", "ETag": #""v1""#]) }
        let revalidated = try await harness.get()
        #expect(revalidated.decision.outcome == .revalidated && revalidated.body == Data("page".utf8))
        #expect(!revalidated.decision.stored && revalidated.decision.notStoredReason == "the 304 has no-store")
        #expect(try harness.storage.variants(forKey: "GET http://origin.test/posts?limit=2").isEmpty)
    }

    /// A 503 answering a revalidation replaces nothing: it is said to come from the origin (it
    /// was said to have replaced the stored response), and the stored one stays.
    @Test func anErrorAnsweringARevalidationReplacesNothing() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=0", "ETag": #""v1""#], body: "page") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.serviceUnavailable, [:], body: "busy") }
        let failed = try await harness.get()
        #expect(failed.decision.outcome == .downloaded && failed.status == .serviceUnavailable)
        #expect(try harness.storage.variants(forKey: "GET http://origin.test/posts?limit=2").map(\.body) == [Data("page".utf8)])
    }

    /// A body kept as the server encoded it (asked with the caller's own `Accept-Encoding`)
    /// answers no request without one, which is promised decoded bytes: the server sent no
    /// `Vary`, and a plain request was given the gzip bytes from storage.
    @Test func anEncodedBodyAnswersOnlyARequestThatAskedForIt() async throws {
        let harness = Harness { request in
            request.headerFields[.acceptEncoding] == nil
                ? response(.ok, ["Cache-Control": "max-age=600"], body: "text")
                : response(.ok, ["Cache-Control": "max-age=600", "Content-Encoding": "gzip"], body: "\u{1F}\u{8B}gzip")
        }
        let encoded = try await harness.get(headers: ["Accept-Encoding": "gzip"])
        #expect(encoded.body == Data("\u{1F}\u{8B}gzip".utf8))
        let plain = try await harness.get()
        #expect(plain.body == Data("text".utf8) && plain.decision.outcome == .downloaded)
        #expect(try await harness.get().decision.outcome == .freshHit)
    }

    @Test func fullResponseToAConditionalRequestReplacesTheEntry() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=0", "ETag": #""v1""#], body: "old") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.ok, ["Cache-Control": "max-age=60", "ETag": #""v2""#], body: "new") }
        let replaced = try await harness.get()
        #expect(replaced.decision.outcome == .replaced)
        let hit = try await harness.get()
        #expect(hit.body == Data("new".utf8))
        #expect(hit.decision.outcome == .freshHit)
    }

    @Test func unexpected304IsAnErrorNotAnEmptyBody() async throws {
        let harness = Harness { _ in response(.notModified) }
        await #expect(throws: CacheError.self) { try await harness.get() }
    }

    @Test func noStoreIsNeverStored() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "no-store, max-age=60"], body: "secret") }
        let first = try await harness.get()
        _ = try await harness.get()
        #expect(first.decision.notStoredReason == "response has no-store")
        #expect(harness.transport.requests.count == 2)
    }

    @Test func mustUnderstandOverridesNoStoreForAStatusThisCacheKnows() async throws {
        let understood = Harness { _ in response(.ok, ["Cache-Control": "must-understand, no-store, max-age=60"], body: "v") }
        _ = try await understood.get()
        #expect(try await understood.get().decision.outcome == .freshHit)

        let unknown = Harness { _ in response(HTTPResponse.Status(code: 299), ["Cache-Control": "must-understand, no-store, max-age=60"]) }
        let first = try await unknown.get()
        #expect(first.decision.notStoredReason == "status 299 is not one this cache stores")
    }

    @Test func noCacheIsStoredButAlwaysRevalidated() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] != nil
                ? response(.notModified, ["ETag": #""n""#])
                : response(.ok, ["Cache-Control": "no-cache, max-age=600", "ETag": #""n""#], body: "x")
        }
        _ = try await harness.get()
        let second = try await harness.get()
        #expect(second.decision.outcome == .revalidated)
    }

    @Test func bodyShorterThanContentLengthIsNotStored() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "Content-Length": "100"], body: "short") }
        let first = try await harness.get()
        #expect(first.decision.stored == false)
        #expect(first.decision.notStoredReason?.contains("Content-Length") == true)
    }

    @Test func statusWithoutHeuristicNeedsExplicitFreshness() async throws {
        let harness = Harness { _ in response(.created, ["ETag": #""c""#], body: "made") }
        let first = try await harness.get()
        #expect(first.decision.stored == false)
    }

    @Test func varyKeepsSeparateVariantsAndStarNeverMatches() async throws {
        let harness = Harness { request in
            response(.ok, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: request.headerFields[.acceptLanguage] ?? "none")
        }
        _ = try await harness.get(headers: ["Accept-Language": "ko"])
        _ = try await harness.get(headers: ["Accept-Language": "en"])
        let korean = try await harness.get(headers: ["Accept-Language": "ko"])
        let english = try await harness.get(headers: ["Accept-Language": "en"])
        #expect(korean.body == Data("ko".utf8))
        #expect(english.body == Data("en".utf8))
        #expect(harness.transport.requests.count == 2)

        let star = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "Vary": "*"], body: "v") }
        _ = try await star.get()
        _ = try await star.get()
        #expect(star.transport.requests.count == 2)
    }

    /// A response to one user's request is not handed to another, nor to a request without
    /// credentials: `Authorization` and `Cookie` part the entries as a `Vary` on them would, and
    /// the stored key holds a digest of their values, not the secret.
    @Test func credentialsKeepTheirOwnEntries() async throws {
        let harness = Harness { request in
            response(.ok, ["Cache-Control": "max-age=60"],
                     body: (request.headerFields[.authorization] ?? "anonymous") + " " + (request.headerFields[.cookie] ?? "-"))
        }
        let alice = ["Authorization": "Bearer alice-secret"]
        _ = try await harness.get(headers: alice)
        let bob = try await harness.get(headers: ["Authorization": "Bearer bob"])
        let anonymous = try await harness.get()
        let session = try await harness.get(headers: ["Cookie": "s=1"])
        let aliceAgain = try await harness.get(headers: alice)
        #expect(bob.body == Data("Bearer bob -".utf8) && bob.decision.outcome == .downloaded)
        #expect(anonymous.body == Data("anonymous -".utf8) && anonymous.decision.outcome == .downloaded)
        #expect(session.body == Data("anonymous s=1".utf8) && session.decision.outcome == .downloaded)
        #expect(aliceAgain.body == Data("Bearer alice-secret -".utf8) && aliceAgain.decision.outcome == .freshHit)
        #expect(harness.transport.requests.count == 4)
        let keys = try harness.storage.variants(forKey: "GET http://origin.test/posts?limit=2").map(\.variantKey)
        #expect(keys.count == 4 && keys.contains("") && !keys.contains { $0.contains("secret") || $0.contains("bob") || $0.contains("s=1") })
    }

    /// What came over HTTPS without a certificate check (`-k`) answers only `-k` requests: a
    /// request that checks never gets, from storage, what no check vouched for, nor does a 304
    /// to a `-k` request renew what a checked one stored.
    @Test func anUncheckedCertificatesAnswerIsKeptApart() async throws {
        let harness = Harness { request in response(.ok, ["Cache-Control": "max-age=60"], body: request.trust.verifies ? "checked" : "unchecked") }
        var insecure = TransportRequest(method: .get, url: URL(string: "https://origin.test/a")!)
        insecure.trust.verifies = false
        let unchecked = try await harness.client.send(insecure, policy: .useProtocolCachePolicy)
        #expect(unchecked.decision.stored)
        let checked = try await harness.get("https://origin.test/a")
        #expect(checked.decision.outcome == .downloaded && checked.body == Data("checked".utf8))
        let uncheckedAgain = try await harness.client.send(insecure, policy: .useProtocolCachePolicy)
        #expect(uncheckedAgain.decision.outcome == .freshHit && uncheckedAgain.body == Data("unchecked".utf8))
        let checkedAgain = try await harness.get("https://origin.test/a")
        #expect(checkedAgain.decision.outcome == .freshHit && checkedAgain.body == Data("checked".utf8))
        #expect(harness.transport.requests.count == 2)
    }

    /// An entry that stands for a validator only (a sync's page the cache lacks) is revalidated
    /// for any request, credentials or not: the server answers for them.
    @Test func aStandInIsRevalidatedWhoeverAsks() async throws {
        let harness = Harness { request in
            request.headerFields[.ifNoneMatch] == #""v1""# ? response(.notModified, ["ETag": #""v1""#]) : response(.ok, [:], body: "full")
        }
        try harness.storage.store(StoredResponse(key: "GET http://origin.test/posts?limit=2", variantKey: StoredResponse.anyVariant,
                                                 url: URL(string: "http://origin.test/posts?limit=2")!, method: .get, status: .ok,
                                                 headerFields: [.eTag: #""v1""#], body: Data(), requestTime: .distantPast, responseTime: .distantPast))
        let answer = try await harness.get(headers: ["Authorization": "Bearer someone"])
        #expect(answer.decision.outcome == .revalidated)
        #expect(harness.transport.requests.first?.headerFields[.ifNoneMatch] == #""v1""#)
    }

    /// Any field whose name says it carries a secret (an API key, a token) parts the entries as
    /// `Authorization` does, as a digest; a `Host` the request sets names another site.
    @Test func secretNamedFieldsAndAnOwnHostKeepTheirOwnEntries() async throws {
        let harness = Harness { request in
            response(.ok, ["Cache-Control": "max-age=60", "Vary": "X-Api-Key"],
                     body: [HTTPField.Name("X-Api-Key")!, .init("Host")!].map { request.headerFields[$0] ?? "-" }.joined(separator: " "))
        }
        _ = try await harness.get(headers: ["X-Api-Key": "key-AAA"])
        let other = try await harness.get(headers: ["X-Api-Key": "key-BBB"])
        let none = try await harness.get()
        let tenant = try await harness.get(headers: ["Host": "tenant-a.example"])
        let again = try await harness.get(headers: ["X-Api-Key": "key-AAA"])
        #expect(other.body == Data("key-BBB -".utf8) && none.body == Data("- -".utf8) && tenant.body == Data("- tenant-a.example".utf8))
        #expect(again.decision.outcome == .freshHit && again.body == Data("key-AAA -".utf8))
        #expect(harness.transport.requests.count == 4)
        let keys = try harness.storage.variants(forKey: "GET http://origin.test/posts?limit=2").map(\.variantKey)
        #expect(!keys.contains { $0.contains("key-") } && keys.contains("host=tenant-a.example\nx-api-key"))
    }

    @Test func varyMatchingNormalisesWhitespace() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "Vary": "Accept"], body: "v") }
        _ = try await harness.get(headers: ["Accept": "application/json,  text/plain"])
        let again = try await harness.get(headers: ["Accept": "application/json, text/plain"])
        #expect(again.decision.outcome == .freshHit)
    }

    @Test func varyMatchingKeepsAQuotedStringWhole() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "Vary": "Accept"], body: "v") }
        _ = try await harness.get(headers: ["Accept": #"text/plain;note="a, b""#])
        let other = try await harness.get(headers: ["Accept": #"text/plain;note="a,b""#])
        #expect(other.decision.outcome == .downloaded)
        let same = try await harness.get(headers: ["Accept": #"text/plain;note="a, b""#])
        #expect(same.decision.outcome == .freshHit)
    }

    @Test func varyTellsAnAbsentFieldFromAnEmptyOne() async throws {
        let harness = Harness { request in
            response(.ok, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: request.headerFields[.acceptLanguage] ?? "absent")
        }
        _ = try await harness.get()
        let empty = try await harness.get(headers: ["Accept-Language": ""])
        let absent = try await harness.get()
        #expect(empty.decision.outcome == .downloaded)
        #expect(absent.decision.outcome == .freshHit && absent.body == Data("absent".utf8))
        #expect(harness.transport.requests.count == 2)
    }

    @Test func onlyIfCachedGives504WhenNothingIsStored() async throws {
        let harness = Harness { _ in response(.ok, body: "never") }
        let answer = try await harness.get(headers: ["Cache-Control": "only-if-cached"])
        #expect(answer.status == .gatewayTimeout)
        #expect(answer.decision.outcome == .unsatisfiable)
        #expect(harness.transport.requests.isEmpty)
    }

    @Test func requestNoCacheAndPragmaForceRevalidation() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60", "ETag": #""p""#], body: "x") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.notModified, ["ETag": #""p""#]) }
        let pragma = try await harness.get(headers: ["Pragma": "no-cache"])
        #expect(pragma.decision.outcome == .revalidated)
        let noCache = try await harness.get(headers: ["Cache-Control": "no-cache"])
        #expect(noCache.decision.outcome == .revalidated)
    }

    @Test func requestMaxStaleAcceptsAStaleEntry() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10"], body: "x") }
        _ = try await harness.get()
        harness.clock.advance(20)
        let stale = try await harness.get(headers: ["Cache-Control": "max-stale=15"])
        #expect(stale.decision.outcome == .staleServed(.acceptedByRequest))
        #expect(harness.transport.requests.count == 1)
    }

    @Test func requestMinFreshAndMaxAgeCanRefuseAFreshEntry() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "x") }
        _ = try await harness.get()
        harness.clock.advance(50)
        _ = try await harness.get(headers: ["Cache-Control": "min-fresh=20"])
        #expect(harness.transport.requests.count == 2)
        harness.clock.advance(5)
        _ = try await harness.get(headers: ["Cache-Control": "max-age=1"])
        #expect(harness.transport.requests.count == 3)
    }

    @Test func unreachableOriginServesStaleAndSaysOffline() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10", "ETag": #""o""#], body: "kept") }
        _ = try await harness.get()
        harness.clock.advance(100)
        harness.transport.answer { _ in throw TransportError.unreachable("connection refused") }
        let offline = try await harness.get()
        #expect(offline.body == Data("kept".utf8))
        #expect(offline.decision.isOffline)
    }

    @Test func mustRevalidateIsNeverServedStaleEvenOffline() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10, must-revalidate", "ETag": #""m""#], body: "x") }
        _ = try await harness.get()
        harness.clock.advance(100)
        harness.transport.answer { _ in throw TransportError.unreachable("down") }
        let answer = try await harness.get()
        #expect(answer.status == .gatewayTimeout)
        #expect(answer.decision.outcome == .unsatisfiable)
    }

    @Test func staleIfErrorServesStoredResponseOnServerError() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10, stale-if-error=300", "ETag": #""e""#], body: "good") }
        _ = try await harness.get()
        harness.clock.advance(60)
        harness.transport.answer { _ in response(.serviceUnavailable, body: "down") }
        let answer = try await harness.get()
        #expect(answer.body == Data("good".utf8))
        #expect(answer.decision.outcome == .staleServed(.onError(status: 503)))
        harness.clock.advance(400)
        let tooLate = try await harness.get()
        #expect(tooLate.status == .serviceUnavailable)
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesInTheBackground() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""s1""#], body: "one") }
        _ = try await harness.get()
        harness.clock.advance(20)
        harness.transport.answer { _ in response(.ok, ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""s2""#], body: "two") }
        let stale = try await harness.get()
        #expect(stale.body == Data("one".utf8))
        #expect(stale.decision.outcome == .staleServed(.whileRevalidating))
        await harness.client.waitForBackgroundRevalidations()
        let refreshed = try await harness.get()
        #expect(refreshed.body == Data("two".utf8))
        #expect(refreshed.decision.outcome == .freshHit)
    }

    @Test func unsafeMethodInvalidatesTheURLAndSameOriginLocation() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "list") }
        _ = try await harness.get("http://origin.test/posts")
        _ = try await harness.get("http://origin.test/posts/7")
        harness.transport.answer { _ in response(.created, ["Location": "/posts/7"], body: "{}") }
        _ = try await harness.client.send(TransportRequest(method: .post, url: URL(string: "http://origin.test/posts")!, body: Data("{}".utf8)))
        harness.transport.answer { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "fresh") }
        #expect(try await harness.get("http://origin.test/posts").decision.outcome == .downloaded)
        #expect(try await harness.get("http://origin.test/posts/7").decision.outcome == .downloaded)
    }

    /// A GET with a body (a search API's query) is keyed by nothing that tells two bodies apart:
    /// it is never answered from storage, nor stored, even by a fresh response.
    @Test func aGETWithABodyIsNeitherAnsweredFromStorageNorStored() async throws {
        let harness = Harness { request in response(.ok, ["Cache-Control": "max-age=60"], body: String(decoding: request.body ?? Data("none".utf8), as: UTF8.self)) }
        let url = URL(string: "http://origin.test/_search")!
        _ = try await harness.get("http://origin.test/_search")
        let first = try await harness.client.send(TransportRequest(method: .get, url: url, body: Data(#"{"q":1}"#.utf8)))
        let second = try await harness.client.send(TransportRequest(method: .get, url: url, body: Data(#"{"q":2}"#.utf8)))
        #expect(first.body == Data(#"{"q":1}"#.utf8) && second.body == Data(#"{"q":2}"#.utf8))
        #expect(first.decision.outcome == .bypassed && second.decision.outcome == .bypassed && harness.transport.requests.count == 3)
        // What the bodiless GET stored is still its own answer.
        #expect(try await harness.get("http://origin.test/_search").body == Data("none".utf8))
    }

    @Test func errorResponseToUnsafeMethodDoesNotInvalidate() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=60"], body: "list") }
        _ = try await harness.get("http://origin.test/posts")
        harness.transport.answer { _ in response(.badRequest) }
        _ = try await harness.client.send(TransportRequest(method: .post, url: URL(string: "http://origin.test/posts")!))
        #expect(try await harness.get("http://origin.test/posts").decision.outcome == .freshHit)
    }

    @Test func redirectsAreFollowedAndEachHopIsCachedByItsOwnRules() async throws {
        let harness = Harness { request in
            request.url.path == "/old"
                ? response(.movedPermanently, ["Location": "/new", "Cache-Control": "max-age=600"])
                : response(.ok, ["Cache-Control": "max-age=60"], body: "moved here")
        }
        let first = try await harness.get("http://origin.test/old")
        #expect(first.body == Data("moved here".utf8))
        #expect(first.url.path == "/new")
        #expect(first.decision.requestsSent == 2)
        // The redirect followed comes with the answer, without a body, for `-i -L` to show.
        #expect(first.redirects.map(\.status) == [.movedPermanently] && first.redirects.first?.headerFields[.location] == "/new")
        let again = try await harness.get("http://origin.test/old")
        #expect(harness.transport.requests.count == 2 && again.redirects.map(\.status) == [.movedPermanently])
    }

    /// A Location with `user:password@` is followed with them as Basic authentication, and the
    /// key of its answer holds neither (it was kept, password and all, in cache.sqlite).
    @Test func aRedirectsCredentialsGoToAuthorizationNotTheKey() async throws {
        let harness = Harness { request in
            request.url.path == "/old"
                ? response(.found, ["Location": "http://mallory:hop-secret@origin.test/new"])
                : response(.ok, ["Cache-Control": "max-age=60"], body: request.headerFields[.authorization] ?? "none")
        }
        let answer = try await harness.get("http://origin.test/old")
        #expect(answer.body == Data(("Basic " + Data("mallory:hop-secret".utf8).base64EncodedString()).utf8))
        #expect(harness.transport.requests.last?.url.absoluteString == "http://origin.test/new")
        #expect(try harness.storage.variants(forKey: "GET http://origin.test/new").count == 1)
    }

    @Test func redirectLoopsStopAfterTenHops() async throws {
        let harness = Harness { _ in response(.found, ["Location": "/loop"]) }
        await #expect(throws: CacheError.tooManyRedirects("http://origin.test/loop", limit: 10)) { try await harness.get("http://origin.test/loop") }
    }

    /// A `Location` that is no http(s) URL cannot be followed: that is said (curl fails too),
    /// where the redirect itself used to be the answer, empty, with success. Without following,
    /// and for a redirect without `Location`, the redirect is the answer.
    @Test(arguments: ["javascript:alert(1)", "ftp://origin.test/file", "http://[::1"])
    func aRedirectThatCannotBeFollowedIsAnError(location: String) async throws {
        let harness = Harness { _ in response(.found, ["Location": location]) }
        await #expect(throws: CacheError.unfollowableRedirect("http://origin.test/a", location: location)) {
            try await harness.get("http://origin.test/a")
        }
        let unfollowed = try await harness.client.send(TransportRequest(method: .get, url: URL(string: "http://origin.test/a")!),
                                                       maximumRedirects: nil)
        #expect(unfollowed.status == .found)
        let noLocation = Harness { _ in response(.found, [:]) }
        #expect(try await noLocation.get("http://origin.test/a").status == .found)
    }

    @Test func withoutARedirectLimitTheRedirectItselfIsTheAnswer() async throws {
        let harness = Harness { _ in response(.found, ["Location": "/elsewhere"]) }
        let answer = try await harness.client.send(TransportRequest(method: .get, url: URL(string: "http://origin.test/a")!),
                                                   maximumRedirects: nil)
        #expect(answer.status == .found)
        #expect(harness.transport.requests.count == 1)
        await #expect(throws: CacheError.tooManyRedirects("http://origin.test/a", limit: 0)) {
            try await harness.client.send(TransportRequest(method: .get, url: URL(string: "http://origin.test/a")!), maximumRedirects: 0)
        }
    }

    @Test func headAfterRevalidationCarriesNoBody() async throws {
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=0", "ETag": #""h""#], body: "body") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.notModified, ["ETag": #""h""#]) }
        let head = try await harness.client.send(TransportRequest(method: .head, url: URL(string: "http://origin.test/posts?limit=2")!))
        #expect(head.decision.outcome == .revalidated)
        #expect(head.body.isEmpty)
        #expect(harness.transport.requests.last?.method == .head)
        #expect(harness.transport.requests.last?.headerFields[.ifNoneMatch] == #""h""#)
    }

    @Test func a304WhoseTagDiffersOnlyInWeaknessSelectsTheValidatedResponse() async throws {
        // Django's GZipMiddleware: W/"t" on the compressed 200, "t" on the 304.
        let harness = Harness { _ in response(.ok, ["Cache-Control": "max-age=0", "ETag": #"W/"t""#], body: "x") }
        _ = try await harness.get()
        harness.transport.answer { _ in response(.notModified, ["ETag": #""t""#]) }
        let revalidated = try await harness.get()
        #expect(revalidated.decision.outcome == .revalidated)
        #expect(revalidated.body == Data("x".utf8))
    }

    @Test func crossOriginRedirectDropsCredentials() async throws {
        let harness = Harness { request in
            request.url.host == "origin.test"
                ? response(.found, ["Location": "http://elsewhere.test/landing"])
                : response(.ok, body: request.headerFields[.authorization] ?? "no credentials")
        }
        let answer = try await harness.get("http://origin.test/start", headers: ["Authorization": "Bearer secret"])
        #expect(answer.body == Data("no credentials".utf8))
    }

    @Test func entryLargerThanTheCacheIsReportedAsNotStored() async throws {
        let transport = ScriptedTransport { _ in response(.ok, ["Cache-Control": "max-age=60"], body: String(repeating: "x", count: 500)) }
        let client = CachingClient(transport: transport, storage: MemoryCacheStorage(capacity: 100))
        let answer = try await client.send(TransportRequest(method: .get, url: URL(string: "http://origin.test/big")!))
        #expect(answer.decision.stored == false)
        #expect(answer.decision.notStoredReason?.contains("larger than the cache capacity") == true)
        #expect(!answer.decision.reasons.contains { $0.hasPrefix("stored:") })
    }
}
