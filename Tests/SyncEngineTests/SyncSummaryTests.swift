@testable import SyncEngine
import Testing

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
        summary.wait(.seconds(2), for: SyncSummary.backoff)
        summary.wait(.milliseconds(500), for: "Retry-After")
        summary.resumedAtPage = 5
        #expect(summary.line.hasSuffix("; 2 retries; waited 2.5 s (backoff 2.0 s, Retry-After 0.5 s); resumed at page 5"))
    }
}
