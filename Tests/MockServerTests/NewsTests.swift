import Foundation
import HTTPFields
import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("/news: a newest-first listing that moves")
struct NewsTests {
    /// The ids of one page of `/news`.
    private func ids(_ response: MockClient.Response) throws -> [Int] {
        try response.decoded([Post].self).map(\.id)
    }

    /// The URL `rel` names in the page's `Link`.
    private func link(_ relation: String, of response: MockClient.Response) -> String? {
        LinkField.target(of: relation, in: [response.headers[.link] ?? ""])?.url?.absoluteString
    }

    @Test func entriesComeNewestFirstByPageWithLinksAndATotal() async throws {
        try await withMockServer(MockServerConfiguration(newsCount: 7)) { server, client in
            let first = try await client.get("/news?per_page=3")
            let firstIDs = try ids(first)
            #expect(firstIDs == [7, 6, 5])
            #expect(first.headers[.xTotalCount] == "7")
            #expect(link("next", of: first) == "\(server.baseURL)/news?page=2&per_page=3")
            let last = try await client.get("/news?page=3&per_page=3")
            let lastIDs = try ids(last)
            #expect(lastIDs == [1])
            #expect(link("next", of: last) == nil)
        }
    }

    @Test func offsetPagingWhenAnOffsetIsGiven() async throws {
        try await withMockServer(MockServerConfiguration(newsCount: 7)) { server, client in
            let page = try await client.get("/news?offset=2&limit=2")
            let pageIDs = try ids(page)
            #expect(pageIDs == [5, 4])
            #expect(link("next", of: page) == "\(server.baseURL)/news?offset=4&limit=2")
        }
    }

    @Test func arrivalsBeforeEachRequestShiftThePagesUpToTheMaximum() async throws {
        let arrivals = try NewsArrivals(spec: "2/request,max=4")
        try await withMockServer(MockServerConfiguration(newsCount: 6, newsArrivals: arrivals)) { _, client in
            // Request 1 adds 7 and 8, request 2 adds 9 and 10: page 2 repeats what page 1 ended with.
            let first = try ids(await client.get("/news?per_page=3"))
            let second = try ids(await client.get("/news?page=2&per_page=3"))
            #expect(first == [8, 7, 6] && second == [7, 6, 5])
            // The maximum is reached: the listing stands still.
            let third = try ids(await client.get("/news?page=3&per_page=3"))
            #expect(third == [4, 3, 2])
            #expect(try await client.get("/news?per_page=3").headers[.xTotalCount] == "10")
            #expect(try await client.send(.post, "/_admin/reset").status == .ok)
            // A reset brings back the seeded entries, and the arrivals start again.
            let afterReset = try ids(await client.get("/news?per_page=3"))
            #expect(afterReset == [8, 7, 6])
        }
    }

    @Test(arguments: [
        ("3/request", NewsArrivals(count: 3, pace: .perRequest)), ("1/s", NewsArrivals(count: 1, pace: .every(.seconds(1)))),
        ("2/request,max=10", NewsArrivals(count: 2, pace: .perRequest, maximum: 10)),
        ("5/2s,max=0", NewsArrivals(count: 5, pace: .every(.seconds(2)), maximum: 0)),
    ])
    func arrivalSpecsParse(spec: String, arrivals: NewsArrivals) throws {
        #expect(try NewsArrivals(spec: spec) == arrivals)
    }

    @Test(arguments: ["0/request", "x/request", "1/fortnight", "2/request,max=x", "2/request,most=3"])
    func badArrivalSpecsAreRefused(spec: String) {
        #expect(throws: SpecError.self) { try NewsArrivals(spec: spec) }
    }

    @Test func scheduledArrivalsCountWholeWindows() {
        let arrivals = NewsArrivals(count: 2, pace: .every(.seconds(10)), maximum: 5)
        #expect(arrivals.due(afterRequests: 9, elapsed: .seconds(9)) == 0)
        #expect(arrivals.due(afterRequests: 1, elapsed: .seconds(21)) == 4)
        #expect(arrivals.due(afterRequests: 1, elapsed: .seconds(100)) == 5)
    }

    @Test func sinceKeepsTheEntriesUpdatedAtOrAfterItAndTheLinksCarryIt() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 5, newsCount: 5)) { server, client in
            let all = try await client.get("/news").decoded([Post].self)
            let cut = try #require(all.map(\.updatedAt).sorted().dropFirst(2).first)
            let since = ISO8601DateFormatter().string(from: cut)
            let recent = try await client.get("/news?since=\(since)&per_page=2")
            let recentIDs = try ids(recent)
            #expect(recentIDs == Array(all.filter { $0.updatedAt >= cut }.map(\.id).prefix(2)))
            #expect(link("next", of: recent)?.hasSuffix("&since=\(since.replacingOccurrences(of: ":", with: "%3A"))") == true)
            // Every paged route takes it, and keeps it in its links.
            let posts = try await client.get("/styles/link/posts?since=\(since)&per_page=1")
            #expect(try posts.decoded([Post].self).allSatisfy { $0.updatedAt >= cut })
            #expect(link("next", of: posts)?.hasPrefix("\(server.baseURL)/styles/link/posts?page=2&per_page=1&since=") == true)
            let bad = try await client.get("/posts?since=yesterday")
            #expect(bad.status == .badRequest && bad.errorCode == "invalid_query")
        }
    }
}
