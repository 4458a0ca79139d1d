import Composition
import Foundation
import HTTPCache
import JSON
import MirrorStore
import Pacing
@testable import MockServer
import Pagination
import Storage
@testable import SyncEngine
import Synchronization
import Testing

@Suite("Syncing fresh-mock's collections through the cache into SQLite")
struct CollectionSyncTests {
    @Test func firstSyncStoresEveryItemAsSentThenFreshPagesCostNothing() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 35, maxAge: 60))
        let fixture = try SyncFixture()
        let first = try await fixture.sync("\(server.baseURL)/posts?limit=10")
        let second = try await fixture.sync("\(server.baseURL)/posts?limit=10")
        await server.stop()
        #expect(first.pages == 4 && first.fullResponses == 4 && first.created == 35 && first.complete)
        #expect(first.endReason == "'next_cursor' is \"0\"")
        #expect(second.requests == 0 && second.freshHits == 4 && second.unchangedPages == 4 && second.created == 0)
        let items = try fixture.items("posts")
        #expect(items.map(\.key) == (1...35).map { ItemKey.integer($0) })
        #expect(items[0].json.hasPrefix(#"{"author":"#) && items[0].json.contains(#""updated_at":"#))
    }

    @Test func revalidatedPagesAreNotRewrittenAndAnEditRewritesOnePage() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 35, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        let unchanged = try await fixture.sync(url)
        #expect(unchanged.notModified == 4 && unchanged.bytesReceived == 0 && unchanged.unchangedPages == 4)
        let patched = try await fixture.services.client.send(TransportRequest(
            method: .patch, url: URL(string: "\(server.baseURL)/posts/12")!, headerFields: [.contentType: "application/json"],
            body: Data(#"{"title":"바뀐 제목"}"#.utf8)))
        #expect(patched.status == .ok)
        let edited = try await fixture.sync(url)
        await server.stop()
        #expect(edited.fullResponses == 1 && edited.notModified == 3 && edited.changed == 1 && edited.created == 0)
        let item = try #require(try fixture.items("posts").first { $0.key == .integer(12) })
        #expect(item.json.contains("바뀐 제목") && item.changedSequence > item.createdSequence)
    }

    /// The mirror's ETags reach the page cache a window of records at a time (`StoredChain`):
    /// with the cache's own validators gone, every page of a chain longer than a window is a 304.
    @Test func aChainLongerThanAWindowIsRevalidatedWholeFromTheMirrorsETags() async throws {
        let pageCount = StoredChain.windowSize + 20
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: pageCount * 2, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=2"
        _ = try await fixture.sync(url)
        let collection = try #require(try fixture.store.collection(named: "posts"))
        fixture.services.forgetPages(try fixture.store.pages(of: collection.id, in: 0..<Int.max).values.compactMap { URL(string: $0.url) })
        let again = try await fixture.sync(url)
        await server.stop()
        #expect(again.pages == pageCount && again.notModified == pageCount && again.fullResponses == 0 && again.bytesReceived == 0)
        #expect(again.totalItems == pageCount * 2 && again.created == 0 && again.removed == 0)
    }

    @Test func aCompletePassDeletesWhatTheServerNoLongerLists() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 25, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        _ = try await fixture.services.client.send(TransportRequest(method: .delete, url: URL(string: "\(server.baseURL)/posts/5")!))
        let summary = try await fixture.sync(url)
        await server.stop()
        #expect(summary.removed == 1 && summary.totalItems == 24)
        #expect(try !fixture.items("posts").contains { $0.key == .integer(5) })
    }

    /// `fresh rm` forgets the pages' validators with the collection: syncing the URL again
    /// asks for each page once, not for a 304 and then the page.
    @Test func aRemovedCollectionIsSyncedAgainWithOneRequestAPage() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 25, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        let collection = try #require(try fixture.store.collection(named: "posts"))
        let pages = try fixture.store.pages(of: collection.id, in: 0..<Int.max).values.compactMap { URL(string: $0.url) }
        try fixture.store.deleteCollection(collection.id)
        fixture.services.forgetPages(pages)
        let again = try await fixture.sync(url)
        await server.stop()
        #expect(pages.count == 3)
        #expect(again.requests == 3 && again.fullResponses == 3 && again.notModified == 0 && again.created == 25)
    }

    @Test func linkOffsetAndSingleDocumentCollectionsAreSeparate() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(articleCount: 45, feedCount: 33, exerciseCount: 40))
        let fixture = try SyncFixture()
        let articles = try await fixture.sync("\(server.baseURL)/articles?per_page=10")
        let feed = try await fixture.sync("\(server.baseURL)/feed") { $0.limit = 10 }
        let exercises = try await fixture.sync("\(server.baseURL)/exercises")
        await server.stop()
        #expect(articles.pages == 5 && articles.totalItems == 45 && articles.endReason == "no Link rel=\"next\"")
        #expect(feed.pages == 4 && feed.totalItems == 33 && feed.endReason == "offset 30 + 3 items reached the total of 33")
        #expect(exercises.pages == 1 && exercises.totalItems == 40)
        let styles = try fixture.store.collections().map { "\($0.name) \($0.plan?.style.name ?? "")" }
        #expect(styles == ["articles link", "exercises single", "feed offset"])
        // Keys overlap (1…) across the collections; each keeps its own items.
        #expect(try fixture.items("articles").count == 45 && fixture.items("feed").count == 33)
    }

    @Test func aPageOverTheSizeLimitStopsTheSyncWithoutRetrying() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 50))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        await #expect {
            try await fixture.sync(url) { $0.maximumPageSize = 3000 }
        } throws: { error in
            guard case SyncError.pageTooLarge(let failedURL, 3000) = error else { return false }
            return failedURL == url
        }
        let stats = try await fixture.services.client.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/_admin/journal")!))
        await server.stop()
        let journal = try JSONSerialization.jsonObject(with: stats.body) as? [[String: Any]] ?? []
        #expect(journal.filter { ($0["url"] as? String)?.hasPrefix("/posts") == true }.count == 1)
    }

    @Test func twoAPIsWithTheSamePathInOneDirectoryStayApart() async throws {
        let one = try await RunningMockServer.start(MockServerConfiguration(seed: 1, postCount: 12))
        let two = try await RunningMockServer.start(MockServerConfiguration(seed: 2, postCount: 20))
        let fixture = try SyncFixture()
        _ = try await fixture.sync("\(one.baseURL)/posts")
        _ = try await fixture.sync("\(two.baseURL)/posts")
        _ = try await fixture.sync("\(one.baseURL)/posts")
        await one.stop()
        await two.stop()
        #expect(try fixture.store.collections().map(\.name) == ["posts", "posts-2"])
        #expect(try fixture.items("posts").count == 12 && fixture.items("posts-2").count == 20)
        #expect(try fixture.items("posts")[0].json != fixture.items("posts-2")[0].json)
    }

    @Test func concurrentSyncsOfOneCollectionKeepEveryItem() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 200, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=20"
        _ = try await fixture.sync(url)
        let summaries = try await withThrowingTaskGroup(of: SyncSummary.self) { group in
            for _ in 0..<4 { group.addTask { try await fixture.sync(url) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await server.stop()
        #expect(summaries.allSatisfy { $0.complete && $0.totalItems == 200 })
        #expect(try fixture.items("posts").count == 200)
    }

    @Test func anInterruptedSyncResumesWhereItStopped() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 500, maxAge: 0))
        let fixture = try SyncFixture()
        let url = URL(string: "\(server.baseURL)/posts?limit=10")!
        let engine = fixture.engine
        // The writer (a thread of its own, not one of the pool's) waits in the first page's event
        // until the run is cancelled, so the run is interrupted with at most a queue and a batch
        // of its 50 pages read.
        let (firstPageWritten, written) = AsyncStream<Void>.makeStream()
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await engine.run(SyncOptions(url: url)) { event in
                if case .page(let page) = event, page.index == 0 {
                    written.yield()
                    cancelled.wait()
                }
            }
        }
        for await _ in firstPageWritten { break }
        task.cancel()
        cancelled.signal()
        await #expect(throws: (any Error).self) { try await task.value }
        // An interruption is no error: the collection shows as unfinished, not failed.
        #expect(try fixture.store.collection(named: "posts")?.lastError == nil)
        let stored = try fixture.items("posts").count
        let resumed = try await fixture.sync(url.absoluteString)
        await server.stop()
        #expect(stored >= 10 && stored < 500)
        #expect(resumed.resumedAtPage == stored / 10 + 1)
        // The pages read before the stop are read again (conditionally: nothing changed, so 304s).
        #expect(resumed.revisitedPages == stored / 10 && resumed.notModified == stored / 10)
        #expect(resumed.pages == 50 && resumed.totalItems == 500 && resumed.complete)
    }

    /// A sync stopped (as by kill -9) while the server changes: the resumed pass reads the pages
    /// it read before the stop again before it calls the copy complete, so it holds exactly
    /// what the server holds: no deleted item, no old version of an edited one.
    @Test(arguments: [0, 60])
    func aResumedPassIsAConsistentCopyOfAServerThatChanged(maxAge: Int) async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 50, maxAge: maxAge))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        let stopped = try await fixture.sync(url) { $0.maximumPages = 3 }
        #expect(!stopped.complete && stopped.totalItems == 30)
        // Page 1 loses an item (the pages after it shift by one), page 2 has one edited.
        _ = try await fixture.services.client.send(TransportRequest(method: .delete, url: URL(string: "\(server.baseURL)/posts/5")!))
        _ = try await fixture.services.client.send(TransportRequest(
            method: .patch, url: URL(string: "\(server.baseURL)/posts/15")!, headerFields: [.contentType: "application/json"],
            body: Data(#"{"title":"edited while the sync was stopped"}"#.utf8)))
        let resumed = try await fixture.sync(url)
        let reference = try SyncFixture()
        let whole = try await reference.sync(url)
        await server.stop()
        #expect(resumed.complete && resumed.resumedAtPage == 4 && resumed.revisitedPages > 0)
        #expect(whole.totalItems == 49)
        #expect(try fixture.items("posts").map(\.json) == reference.items("posts").map(\.json))
    }

    /// Where nothing changed, the revisit confirms the pages read before the stop (304s) and no
    /// others: it ends where it rejoins the pages the resumed run read.
    @Test func aResumedPassOverUnchangedPagesRevisitsOnlyThePagesReadBefore() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 50, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url) { $0.maximumPages = 3 }
        let resumed = try await fixture.sync(url)
        #expect(resumed.complete && resumed.resumedAtPage == 4 && resumed.totalItems == 50)
        // Two pages downloaded, three confirmed, and no request beyond them (a guess included).
        #expect(resumed.revisitedPages == 3 && resumed.notModified == 3 && resumed.fullResponses == 2 && resumed.requests == 5)
        // Page by page, as the reader's infinite scroll loads them: each page is asked once, and
        // the last run removes nothing (the next whole sync settles the pass).
        func pagesAsked() async throws -> [String] {
            let journal = try await fixture.services.client.send(
                TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/_admin/journal?limit=500")!), policy: .reloadIgnoringLocalCacheData)
            let entries = try JSONSerialization.jsonObject(with: journal.body) as? [[String: Any]] ?? []
            return entries.compactMap { $0["url"] as? String }.filter { $0.hasPrefix("/posts") }
        }
        let before = try await pagesAsked().count
        let paged = try SyncFixture()
        var runs = [try await paged.sync(url) { $0.maximumPages = 1 }]
        while !runs.last!.complete { runs.append(try await paged.sync(url) { $0.maximumPages = 1 }) }
        let asked = try await pagesAsked().dropFirst(before)
        await server.stop()
        #expect(runs.count == 5 && runs.allSatisfy { $0.requests == 1 && $0.revisitedPages == 0 })
        #expect(runs.last!.resumedAtPage == 5 && runs.last!.totalItems == 50 && runs.last!.endReason?.contains("nothing was removed") == true)
        #expect(asked.count == 5 && Set(asked).count == 5, "each page once: \(asked)")
    }

    /// `-H` fields without a secret are kept for `fresh sync NAME`; a sync by name sends them.
    @Test func headersWithoutASecretAreKeptForTheNextSyncByName() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30, maxAge: 60))
        let fixture = try SyncFixture()
        _ = try await fixture.sync("\(server.baseURL)/posts?limit=10") {
            $0.headerFields = [.accept: "application/json", .authorization: "Bearer s3cret"]
            $0.rememberedHeaders = [.accept: "application/json"]
        }
        let record = try #require(try fixture.store.collection(named: "posts"))
        #expect(record.headerFields == [.accept: "application/json"])
        let again = try #require(SyncOptions(resyncing: record))
        #expect(again.name == "posts" && again.url.absoluteString == record.url)
        #expect(again.headerFields[.accept] == "application/json" && again.headerFields[.authorization] == nil)
        // A sync by URL without -H forgets them.
        _ = try await fixture.sync("\(server.baseURL)/posts?limit=10") { $0.rememberedHeaders = [:] }
        await server.stop()
        #expect(try fixture.store.collection(named: "posts")?.headerFields.isEmpty == true)
    }

    @Test func restartStartsOverFromTheFirstPage() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 30, maxAge: 60))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        let again = try await fixture.sync(url) { $0.restart = true }
        await server.stop()
        #expect(again.pages == 3 && again.resumedAtPage == nil && again.totalItems == 30)
    }

    @Test func invalidJSONNamesThePageAndKeepsEveryStoredItem() async throws {
        let good = try await RunningMockServer.start(MockServerConfiguration(postCount: 35, maxAge: 0))
        let fixture = try SyncFixture()
        _ = try await fixture.sync("\(good.baseURL)/posts?limit=10") { $0.name = "posts" }
        await good.stop()
        let broken = try await RunningMockServer.start(MockServerConfiguration(postCount: 35, faults: [FaultRule(route: "/posts", failure: .invalidJSON)]))
        await #expect {
            try await fixture.sync("\(broken.baseURL)/posts?limit=10")
        } throws: { error in
            guard case SyncError.invalidJSON(let url, _) = error else { return false }
            return url == "\(broken.baseURL)/posts?limit=10"
        }
        await broken.stop()
        #expect(try fixture.items("posts").count == 35)
    }

    @Test func fiveHundredsAreRetriedWithBackoffThenSucceed() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 15, faults: [FaultRule(route: "/posts", failure: .status, status: 502, first: 2)]))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(server.baseURL)/posts?limit=10")
        await server.stop()
        #expect(summary.retries == 2 && summary.totalItems == 15)
        #expect(fixture.waits.withLock { $0 } == [.milliseconds(750), .milliseconds(1500)])
    }

    /// A gzip body cut short in a well-framed answer (fresh-mock's `truncate`): its coding cannot
    /// decode it, so it is asked again, as a body cut short by the connection is, not refused as
    /// a reply that is not HTTP.
    @Test func aCompressedBodyCutShortIsAskedAgain() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 15, faults: [FaultRule(route: "/posts", failure: .truncate, first: 1)]))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(server.baseURL)/posts?limit=10")
        await server.stop()
        #expect(summary.retries == 1 && summary.totalItems == 15 && summary.complete)
    }

    @Test func retryAfterIsHonouredAndTooLongAWaitStops() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 15, faults: [FaultRule(route: "/posts", failure: .status, status: 429, first: 1, retryAfter: 7)]))
        let fixture = try SyncFixture()
        let summary = try await fixture.sync("\(server.baseURL)/posts?limit=10")
        #expect(summary.retries == 1 && fixture.waits.withLock { $0 } == [.seconds(7)])
        let patient = try await RunningMockServer.start(MockServerConfiguration(
            postCount: 15, faults: [FaultRule(route: "/posts", failure: .status, status: 503, retryAfter: 300)]))
        await #expect {
            try await fixture.sync("\(patient.baseURL)/posts?limit=10") { $0.retry = RetryPolicy(retries: 3, maximumWait: .seconds(60)) }
        } throws: { error in
            // The wait asked travels with the error: `--watch` asks again no sooner.
            guard case SyncError.gaveUp(_, let reason, 503, .seconds(300)?) = error else { return false }
            return reason.contains("asks to wait 300 s, longer than --max-wait 60 s")
        }
        await server.stop()
        await patient.stop()
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(faults: [FaultRule(route: "/posts", failure: .status, status: 403)]))
        let fixture = try SyncFixture()
        await #expect {
            try await fixture.sync("\(server.baseURL)/posts")
        } throws: { error in
            guard case SyncError.httpStatus(403, _, let message) = error else { return false }
            return message?.contains("fault injected") == true
        }
        await server.stop()
        #expect(fixture.waits.withLock { $0 }.isEmpty)
    }

    /// A server's long error message is kept to a line, and says where it was cut.
    @Test func aLongErrorMessageIsCutWithAnEllipsis() async throws {
        let origin = try ScriptedOrigin()
        let long = "query parameter 'cursor': not understood; " + String(repeating: "this API takes _page, _per_page, _sort, q ", count: 12) + "END"
        try origin.serve(["/things": ScriptedOrigin.Reply(status: 400, body: #"{"error": "\#(long)"}"#)])
        await #expect {
            try await SyncFixture().sync(origin.baseURL + "/things")
        } throws: { error in
            guard case SyncError.httpStatus(400, _, let message?) = error else { return false }
            // Cut after a word: "… q …", never "… _sort, q th…".
            return message.count <= 300 && message.hasPrefix("query parameter 'cursor'") && message.hasSuffix(" …") == false
                && message.hasSuffix("…") && message.dropLast().last != " " && long.hasPrefix(message.dropLast() + " ") && !message.contains("END")
        }
        // A text body is kept to its first line, and says there was more.
        try origin.serve(["/page": ScriptedOrigin.Reply(status: 400, body: "<title>400 Bad Request</title>\n<p>the rest</p>")])
        await #expect {
            try await SyncFixture().sync(origin.baseURL + "/page")
        } throws: { error in
            guard case SyncError.httpStatus(400, _, let message?) = error else { return false }
            return message == "<title>400 Bad Request</title> …"
        }
    }

    /// A 5xx given up on keeps what the server said with it, as a 4xx's line does.
    @Test func aServerErrorGivenUpOnSaysTheServersMessage() async throws {
        let origin = try ScriptedOrigin()
        try origin.serve(["/things": ScriptedOrigin.Reply(status: 500, body: #"{"message": "database is down for maintenance"}"#)])
        await #expect {
            try await SyncFixture().sync(origin.baseURL + "/things") { $0.retry = RetryPolicy(retries: 0) }
        } throws: { error in
            guard case SyncError.gaveUp(_, let reason, 500, _) = error else { return false }
            return reason.hasSuffix(": database is down for maintenance")
        }
    }

    @Test func anUnreachableServerIsOfflineAfterTheRetriesAndStoredItemsStay() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 15, maxAge: 0))
        let fixture = try SyncFixture()
        let url = "\(server.baseURL)/posts?limit=10"
        _ = try await fixture.sync(url)
        await server.stop()
        await #expect {
            try await fixture.sync(url)
        } throws: { error in
            guard case SyncError.offline = error else { return false }
            return true
        }
        #expect(fixture.waits.withLock { $0 }.count == 3)
        #expect(try fixture.items("posts").count == 15)
        #expect(try fixture.store.collection(named: "posts")?.lastError?.hasPrefix("cannot reach the server") == true)
        // Nothing was written: the collection is as complete as before, so a reader refreshes it on open.
        #expect(try fixture.store.collection(named: "posts")?.passComplete == true)
    }

    /// A failure's line quoting a server's U+0000 is kept whole as the collection's last error:
    /// a PostgreSQL text cannot hold U+0000, and a read of SQLite text ended there.
    @Test func aStoredErrorLineKeepsWhatFollowsU0000() {
        struct QuotedKey: Error, CustomStringConvertible { var description = "items 1 and 2 have the same key \"a\u{0}b\"" }
        #expect(ErrorDescription.storedLine(QuotedKey()) == #"items 1 and 2 have the same key "a\u{0}b""#)
    }

    @Test func aNameOfAnotherURLIsRefused() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 5, articleCount: 5))
        let fixture = try SyncFixture()
        _ = try await fixture.sync("\(server.baseURL)/posts") { $0.name = "mine" }
        await #expect(throws: SyncError.nameTaken(name: "mine", url: "\(server.baseURL)/posts")) {
            try await fixture.sync("\(server.baseURL)/articles") { $0.name = "mine" }
        }
        await server.stop()
    }
}
