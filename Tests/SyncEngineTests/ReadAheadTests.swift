import Composition
import Foundation
import HTTPCache
@testable import MockServer
import Pacing
import Pagination
import Storage
import SyncEngine
import Synchronization
import Testing

/// A page read while the request for the next one waits: what the walk did page by page, it
/// still does when the reading overlaps the next request.
@Suite("Reading a page while the next one is requested")
struct ReadAheadTests {
    typealias Reply = ScriptedOrigin.Reply

    func keys(_ fixture: SyncFixture, _ name: String = "things") throws -> [String] {
        try fixture.items(name).map(\.key.text).sorted { Int($0)! < Int($1)! }
    }

    @Test func aWaitToRetryTheNextPageWritesThePageBeforeItFirst() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        try origin.serve(["/things": EarlyEndTests.cursorPage(1...2, next: "2"), "/things?cursor=2": EarlyEndTests.cursorPage(3...4, next: "4"),
                          "/things?cursor=4": Reply(status: 429, body: #"{"error": "slow down"}"#)])
        // The second page is read while its next one is asked for; that one is refused. The wait
        // to retry (minutes, for a real server) starts only once the second page is written: the
        // test's wait ends when the writer reports it, then the run is interrupted (as by Ctrl-C).
        // The limit only keeps a broken walk from hanging the suite: the pages are written after
        // the batch delay, which a full test run on two cores can stretch by seconds.
        let (written, writer) = AsyncStream<Int>.makeStream()
        let services = FreshServices(location: fixture.services.location, clock: PacingClock(now: { .now }, sleep: { _ in
            try await Self.first(in: written, where: { $0 == 1 }, orFailAfter: .seconds(120))
            throw CancellationError()
        }))
        let interrupted = CollectionSync(network: services, store: fixture.store)
        await #expect(throws: CancellationError.self) {
            _ = try await interrupted.run(SyncOptions(url: URL(string: origin.baseURL + "/things")!)) { event in
                if case .page(let page) = event { writer.yield(page.index) }
            }
        }
        #expect(try keys(fixture) == ["1", "2", "3", "4"])
        try origin.serve(["/things": EarlyEndTests.cursorPage(1...2, next: "2"), "/things?cursor=2": EarlyEndTests.cursorPage(3...4, next: "4"),
                          "/things?cursor=4": EarlyEndTests.cursorPage(5...5, next: nil)])
        let resumed = try await fixture.sync(origin.baseURL + "/things")
        #expect(resumed.resumedAtPage == 3 && resumed.complete)
        #expect(try keys(fixture) == ["1", "2", "3", "4", "5"])
    }

    @Test func aPageThatFailsItsReadingStopsTheSyncAtThatPage() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        // The second page has a raw control character in a string: the quick pass that finds its
        // cursor does not look inside strings, the reading refuses it.
        try origin.serve(["/things": EarlyEndTests.cursorPage(1...2, next: "2"),
                          "/things?cursor=2": Reply(body: "{\"data\": [{\"id\": 3, \"title\": \"a\u{1}b\"}], \"next_cursor\": \"4\"}"),
                          "/things?cursor=4": EarlyEndTests.cursorPage(5...6, next: nil)])
        let events = Mutex<[SyncEvent]>([])
        await #expect {
            _ = try await fixture.engine.run(SyncOptions(url: URL(string: origin.baseURL + "/things")!)) { event in
                events.withLock { $0.append(event) }
            }
        } throws: { error in
            guard case SyncError.invalidJSON(let url, let detail) = error else { return false }
            return url.hasSuffix("/things?cursor=2") && detail.contains("control character")
        }
        #expect(try keys(fixture) == ["1", "2"])
        // The third page was asked for before the second was read; its request is counted.
        let stopped = events.withLock { events in
            events.compactMap { event -> SyncSummary? in if case .stopped(let summary) = event { summary } else { nil } }.last
        }
        #expect(stopped?.requests == 3 && stopped?.pages == 2)
    }

    @Test func aPageWithABrokenEscapeBeforeItsCursorIsRefusedAsBefore() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        try origin.serve(["/things": EarlyEndTests.cursorPage(1...2, next: "2"),
                          "/things?cursor=2": Reply(body: #"{"data": [{"id": 3}], "x\u00G0": 1, "next_cursor": "4"}"#),
                          "/things?cursor=4": EarlyEndTests.cursorPage(5...6, next: nil)])
        await #expect {
            _ = try await fixture.sync(origin.baseURL + "/things")
        } throws: { error in
            guard case SyncError.invalidJSON(let url, let detail) = error else { return false }
            return url.hasSuffix("/things?cursor=2") && detail.contains("\\u escape")
        }
        #expect(try keys(fixture) == ["1", "2"])
    }

    @Test(arguments: ["link", "next-url", "links-next", "cursor-null", "cursor-absent", "cursor-empty", "cursor-zero"])
    func everyStyleThatReadsAheadWalksTheWholeCollectionAndNoFurther(style: String) async throws {
        // fresh-mock's style routes (Link headers, next URLs, cursors ending four ways): the
        // quick pass must agree with the reading page after page, and stop where it stops.
        let server = try await RunningMockServer.start(MockServerConfiguration(userCount: 23))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(server.baseURL)/styles/\(style)/users") { $0.limit = 5 }
        await server.stop()
        #expect(summary.complete && summary.totalItems == 23 && summary.pages > 1)
        #expect(summary.requests == summary.pages, "a request for every page and no more")
    }

    /// A re-sync requests the pages its last pass chained ahead of the walk (the lookahead), and
    /// each page once: a guess already in flight is not asked again at the next page's take.
    @Test func aResyncAsksEachChainedPageOnce() async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture()
        var table: [String: Reply] = [:]
        for page in 1...12 {
            let items = (page * 2 - 1...page * 2).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
            let next = page < 12 ? "\"\(origin.baseURL)/things?cursor=\(page + 1)\"" : "null"
            table[page == 1 ? "/things" : "/things?cursor=\(page)"] = Reply(body: #"{"data": [\#(items)], "next": \#(next)}"#,
                                                                             etag: "\"p\(page)\"")
        }
        try origin.serve(table)
        let first = try await fixture.sync(origin.baseURL + "/things")
        let before = try await origin.received(through: fixture.services.client).count
        let again = try await fixture.sync(origin.baseURL + "/things")
        let asked = try await origin.received(through: fixture.services.client).dropFirst(before).map(\.path)
        #expect(first.complete && first.totalItems == 24 && again.complete && again.totalItems == 24)
        #expect(asked.sorted() == table.keys.sorted(), "each page once")
        #expect(again.requests == again.pages)
    }

    /// The rule of a 429 or 503 with `Retry-After`: no request of the sync reaches the server
    /// before the time it gave, the request read ahead included (the page before it is read
    /// while it is on its way) and the guesses of a re-sync's lookahead.
    @Test(arguments: [false, true])
    func nothingReachesTheServerBeforeItsRetryAfter(resync: Bool) async throws {
        let origin = try ScriptedOrigin()
        let fixture = try SyncFixture(realTime: true)
        func pages(throttlingPage3: Bool) -> [String: Reply] {
            var table: [String: Reply] = [:]
            for page in 1...6 {
                var reply = EarlyEndTests.cursorPage((page * 2 - 1)...(page * 2), next: page < 6 ? "\(page + 1)" : nil)
                reply.etag = "\"p\(page)\""
                if throttlingPage3 && page == 3 { (reply.throttled, reply.retryAfter) = (1, "1") }
                table[page == 1 ? "/things" : "/things?cursor=\(page)"] = reply
            }
            return table
        }
        let url = URL(string: origin.baseURL + "/things")!
        if resync {
            // A first pass stores the chain, so the re-sync guesses pages ahead of the walk.
            try origin.serve(pages(throttlingPage3: false))
            _ = try await fixture.sync(url.absoluteString)
        }
        try origin.serve(pages(throttlingPage3: true))
        // Real waits: the server's clock is what is judged.
        let told = Mutex<[Duration]>([])
        let summary = try await CollectionSync(network: fixture.services, store: fixture.store).run(SyncOptions(url: url)) { event in
            switch event {
            case .retrying(_, let wait, _, _, _), .waitingAtGate(_, let wait, _): told.withLock { $0.append(wait) }
            default: break
            }
        }
        // The wait is said once, whichever request met the 429: a retry, or one that waits at the gate.
        #expect(told.withLock { $0.count } == 1)
        let log = try await origin.received(through: fixture.services.client).filter { $0.path != "/_log" }
        // A page read ahead retries itself; a guess gives up, and the walk asks again, at the gate.
        #expect(summary.complete && summary.retries == (resync ? 0 : 1) && summary.totalItems == 12 && summary.secondsWaited > 0.5)
        let refusal = try #require(log.first { $0.status == 429 })
        // Requests already on their way when the 429 was sent may still arrive just after it;
        // none sent after it, until the second it asked for has passed.
        let early = log.filter { $0.time > refusal.time + 0.25 && $0.time < refusal.time + 1 }
        #expect(early.isEmpty, "\(early.map(\.path))")
        let again = try #require(log.last { $0.path == refusal.path })
        #expect(again.time >= refusal.time + 1 && again.status == 200)
    }

    struct NeverCame: Error {}

    /// Waits for the first element of `stream` that matches, failing after `limit`.
    static func first(in stream: AsyncStream<Int>, where matches: @escaping @Sendable (Int) -> Bool, orFailAfter limit: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await element in stream where matches(element) { return }
                throw NeverCame()
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw NeverCame()
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
