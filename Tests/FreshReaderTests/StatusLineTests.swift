import Fetcher
import Foundation
import Testing
@testable import FreshReader

@Suite("Status line")
struct StatusLineTests {
    @Test func idleShowsTheCount() {
        #expect(StatusLine.text(postCount: 42, status: .idle) == "42 posts")
        #expect(StatusLine.text(postCount: 1, status: .idle) == "1 post")
        #expect(StatusLine.text(postCount: 0, status: .idle) == "no posts")
    }

    @Test func loadingSaysRefreshing() {
        #expect(StatusLine.text(postCount: 42, status: .loading) == "42 posts · refreshing…")
    }

    @Test func refreshedShowsTheClockTime() {
        let date = Date(timeIntervalSince1970: 50_601) // 14:03:21 UTC
        #expect(StatusLine.text(postCount: 42, status: .refreshed(date), timeZone: utc) == "42 posts · updated 14:03:21")
    }

    @Test func unreachableServerSaysOffline() {
        let failure = FetchFailure(message: "cannot reach the server for http://127.0.0.1:9/posts: connection refused", isOffline: true)
        #expect(StatusLine.text(postCount: 42, status: .failed(failure))
            == "42 posts · offline, showing stored posts (cannot reach the server for http://127.0.0.1:9/posts: connection refused)")
    }

    @Test func otherFailuresSayError() {
        let failure = FetchFailure(message: "server answered 500", isOffline: false)
        #expect(StatusLine.text(postCount: 3, status: .failed(failure)) == "3 posts · error: server answered 500")
    }

    @Test func hintsDependOnTheScreen() {
        #expect(StatusLine.hints(inPost: false).contains("q quit"))
        #expect(StatusLine.hints(inPost: true).contains("q back"))
    }
}
