import ArgumentParser
import Foundation
import HTTPCache
import HTTPTypes
import SyncOrchestration
import Testing
@testable import FreshCLI

@Suite("fresh get: curl's flags and conventions")
struct GetArgumentTests {
    @Test func aURLWithoutASchemeMeansHTTP() throws {
        #expect((try? ParsedURL.parse("example.com/a?b=1"))?.url.absoluteString == "http://example.com/a?b=1")
        #expect((try? ParsedURL.parse("localhost:8080/posts"))?.url.absoluteString == "http://localhost:8080/posts")
        #expect((try? ParsedURL.parse("https://example.com"))?.url.absoluteString == "https://example.com")
        #expect((try? ParsedURL.parse("ftp://example.com")) == nil)
        #expect((try? ParsedURL.parse("not a url")) == nil)
    }

    @Test func userAndPasswordBecomeBasicAuthorization() throws {
        let command = try GetCommand.parse(["-u", "me:s3cret", "http://o.test/a"])
        let request = try command.makeRequest()
        #expect(request.headerFields[.authorization] == "Basic bWU6czNjcmV0")
        #expect(throws: (any Error).self) { try GetCommand.parse(["-u", "me", "http://o.test/a"]) }
    }

    /// A URL's user and password are sent as curl sends them, and leave the URL: the cache's key
    /// and every line printed hold neither (the cache tells credentials apart by `Authorization`).
    @Test func aURLsUserInfoBecomesBasicAuthorizationUnlessGiven() throws {
        let request = try GetCommand.parse(["http://me:s3cret@o.test/a"]).makeRequest()
        #expect(request.headerFields[.authorization] == "Basic bWU6czNjcmV0" && request.url.absoluteString == "http://o.test/a")
        let token = try GetCommand.parse(["http://tok@o.test/a"]).makeRequest()
        #expect(token.headerFields[.authorization] == "Basic " + Data("tok:".utf8).base64EncodedString())
        let given = try GetCommand.parse(["-u", "you:other", "http://me:s3cret@o.test/a"]).makeRequest()
        #expect(given.headerFields[.authorization] == "Basic " + Data("you:other".utf8).base64EncodedString())
        #expect(given.url.absoluteString == "http://o.test/a")
    }

    /// `--fail-with-body` is curl's: the body of an error status is written; not with `--fail`.
    @Test func failWithBodyIsTakenAndExcludesFail() throws {
        #expect(try GetCommand.parse(["--fail-with-body", "http://o.test/a"]).failWithBody)
        #expect(throws: (any Error).self) { try GetCommand.parse(["--fail", "--fail-with-body", "http://o.test/a"]) }
    }

    @Test func headSendsHEADAndPrintsTheHeadOnly() throws {
        let command = try GetCommand.parse(["-I", "http://o.test/a"])
        #expect(try command.makeRequest().method == .head)
        let response = CachedResponse(status: HTTPResponse.Status(code: 200, reasonPhrase: "Fine"), headerFields: [.contentType: "text/plain"],
                                      body: Data("body".utf8), url: URL(string: "http://o.test/a")!,
                                      decision: CacheDecision(outcome: .downloaded), version: "HTTP/2")
        let printed = try ResponsePrinter(include: false, json: false, output: nil, headOnly: true).rendered(response)
        #expect(String(decoding: printed, as: UTF8.self) == "HTTP/2 200 Fine\r\nContent-Type: text/plain\r\n\r\n")
    }

    /// `-L -v`: each hop says its own status and decision, after its URL; the last one's
    /// "fresh hit" is not all there is when redirects went to the network.
    @Test func verboseExplainsEveryHopOfARedirect() {
        var hop = CachedResponse(status: HTTPResponse.Status(code: 302), headerFields: [:], body: Data(), url: URL(string: "http://o.test/old")!,
                                 decision: CacheDecision(outcome: .downloaded, notStoredReason: "a 302 without explicit freshness"))
        hop.decision.requestsSent = 1
        var last = CachedResponse(status: HTTPResponse.Status(code: 200), headerFields: [:], body: Data("x".utf8), url: URL(string: "http://o.test/new")!,
                                  decision: CacheDecision(outcome: .freshHit, requestsSent: 1))
        last.redirects = [hop]
        #expect(GetCommand.verboseLines(last, head: false) == [
            "request to http://o.test/old", "HTTP/1.1 302 Found", "downloaded", "not stored: a 302 without explicit freshness",
            "request to http://o.test/new", "HTTP/1.1 200 OK", "fresh hit",
        ])
        #expect(GetCommand.verboseLines(hop, head: false) == ["HTTP/1.1 302 Found", "downloaded", "not stored: a 302 without explicit freshness"])
    }

    @Test func aStoredResponseGetsTheStandardReasonPhrase() {
        let stored = CachedResponse(status: HTTPResponse.Status(code: 404), headerFields: [:], body: Data(),
                                    url: URL(string: "http://o.test/a")!, decision: CacheDecision(outcome: .freshHit))
        #expect(StatusLine.text(of: stored) == "HTTP/1.1 404 Not Found")
    }

    /// The version is the first word of the server's status line: escaped like its phrase.
    @Test func aStatusLineFromTheServerReachesTheTerminalEscaped() {
        let hostile = CachedResponse(status: HTTPResponse.Status(code: 200, reasonPhrase: "OK\u{1B}[2J"), headerFields: [:], body: Data(),
                                     url: URL(string: "http://o.test/a")!, decision: CacheDecision(outcome: .downloaded),
                                     version: "HTTP/1.1\u{1B}]0;owned\u{07}")
        let line = StatusLine.text(of: hostile)
        #expect(!line.contains("\u{1B}") && !line.contains("\u{07}") && line.hasPrefix("HTTP/1.1") && line.contains(" 200 OK"))
    }

    @Test func redirectsAreFollowedOnlyWithLocation() throws {
        #expect(try GetCommand.parse(["http://o.test/a"]).location == false)
        let following = try GetCommand.parse(["-L", "http://o.test/a"])
        #expect(following.location && following.maxRedirects == 50)
        #expect(try GetCommand.parse(["--location", "--max-redirs", "3", "http://o.test/a"]).maxRedirects == 3)
        #expect(try GetCommand.parse(["-L", "--max-redirs", "-1", "http://o.test/a"]).maxRedirects == -1)
        #expect(throws: (any Error).self) { try GetCommand.parse(["-L", "--max-redirs", "-2", "http://o.test/a"]) }
    }

    @Test func curlsOtherFlagsAreAccepted() throws {
        let command = try GetCommand.parse(["-s", "-S", "--compressed", "--retry", "2", "--raw", "http://o.test/a"])
        #expect(command.silent && command.showError && command.network.compressed && command.retries == 2 && command.raw)
    }

    @Test func aSlowServerIsNotCalledOffline() {
        var decision = CacheDecision(outcome: .staleServed(.offline("timed out after 2 s")), currentAge: 5)
        decision.networkFailure = .timedOut(.seconds(2))
        #expect(StaleNotice.line(for: decision) == "the server did not answer in time (timed out after 2 s); showing the stored response (age 5 s)")
        decision.networkFailure = .unreachable("Connection refused")
        #expect(StaleNotice.line(for: decision)?.hasPrefix("offline: the server could not be reached") == true)
        #expect(StaleNotice.line(for: CacheDecision(outcome: .freshHit)) == nil)
    }

    /// A server error hidden by a stored response (stale-if-error) is said, as being offline is.
    @Test func aServerErrorTheStoredResponseAnswersIsSaid() {
        let decision = CacheDecision(outcome: .staleServed(.onError(status: 503)), currentAge: 70)
        #expect(StaleNotice.line(for: decision) == "the server answered 503; showing the stored response (age 70 s), as its stale-if-error allows")
        #expect(StaleNotice.line(for: CacheDecision(outcome: .staleServed(.whileRevalidating))) == nil)
    }
}
