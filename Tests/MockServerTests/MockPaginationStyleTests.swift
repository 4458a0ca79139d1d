import Foundation
import HTTPFields
import HTTPTypes
import Models
import Testing

@testable import MockServer

@Suite("/styles/{style}/{collection}: every pagination style")
struct MockPaginationStyleTests {
    static let styles = MockPaginationStyle.allCases
    static let collections = ["posts", "users"]

    /// Requests a walk takes: one per page, plus the 404 of page-404 and the empty page after a
    /// full last page of offset.
    static func expectedRequests(_ style: MockPaginationStyle, items: Int, pageSize: Int) -> Int {
        let pages = max(1, (items + pageSize - 1) / pageSize)
        let lastIsFull = items % pageSize == 0 && items > 0
        switch style {
        case .page404: return pages + 1
        case .offset where lastIsFull: return pages + 1
        default: return pages
        }
    }

    @Test(arguments: styles, collections)
    func walksEveryItemOnceInKeyOrderAndEndsAsDocumented(style: MockPaginationStyle, collection: String) async throws {
        try await withMockServer(MockServerConfiguration(postCount: 23, userCount: 23)) { server, client in
            let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: collection, pageSize: 5)
            let pages = try await walker.walk()
            let keys = pages.flatMap(\.keys)
            #expect(keys == (try await Self.allKeys(client, collection)))
            #expect(Set(keys).count == 23)
            #expect(pages.count == Self.expectedRequests(style, items: 23, pageSize: 5))
            if style == .page404 { #expect(pages.last?.status == 404) }
        }
    }

    @Test(arguments: styles)
    func aFullLastPageStillEndsTheWalk(style: MockPaginationStyle) async throws {
        try await withMockServer(MockServerConfiguration(userCount: 20)) { server, client in
            let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "users", pageSize: 5)
            let pages = try await walker.walk()
            #expect(pages.flatMap(\.keys).count == 20)
            #expect(pages.count == Self.expectedRequests(style, items: 20, pageSize: 5))
        }
    }

    @Test(arguments: styles)
    func anEmptyCollectionIsOneEmptyPage(style: MockPaginationStyle) async throws {
        try await withMockServer(MockServerConfiguration(userCount: 0)) { server, client in
            let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "users", pageSize: 5)
            let pages = try await walker.walk()
            #expect(pages.first?.status == 200 && pages.first?.keys == [])
            #expect(pages.count == (style == .page404 ? 2 : 1))
        }
    }

    @Test(arguments: styles)
    func pagesCarryValidatorsAndRevalidateTo304(style: MockPaginationStyle) async throws {
        try await withMockServer { _, client in
            let path = "/styles/\(style.rawValue)/users"
            let first = try await client.get(path)
            let etag = try #require(first.headers[.eTag])
            let lastModified = try #require(first.headers[.lastModified])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            #expect(first.headers[.vary] == "Accept-Encoding")
            #expect(first.headers[.cacheControl] == "max-age=60")
            let byTag = try await client.get(path, headers: [.ifNoneMatch: etag])
            #expect(byTag.status == .notModified && byTag.headers[.eTag] == etag && byTag.headers[.vary] == "Accept-Encoding")
            let byDate = try await client.get(path, headers: [.ifModifiedSince: lastModified])
            #expect(byDate.status == .notModified)
        }
    }

    @Test(arguments: styles)
    func editingOneItemChangesOnlyItsPage(style: MockPaginationStyle) async throws {
        try await withMockServer(MockServerConfiguration(postCount: 23)) { server, client in
            let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "posts", pageSize: 5)
            let before = try await walker.walk()
            let edited = try await client.send(.patch, "/posts/12", json: #"{"title":"edited 편집"}"#)
            #expect(edited.status == .ok)
            let after = try await walker.walk()
            #expect(after.map(\.path) == before.map(\.path))
            let changed = zip(before, after).enumerated().filter { $0.element.0.etag != $0.element.1.etag }.map(\.offset)
            #expect(changed == [2])  // posts 11…15
            for (old, new) in zip(before, after) where old.etag == new.etag {
                #expect(old.lastModified == new.lastModified)
            }
            let oldDate = try #require(before[2].lastModified.flatMap(HTTPDate.parse))
            let newDate = try #require(after[2].lastModified.flatMap(HTTPDate.parse))
            #expect(newDate > oldDate)
        }
    }

    /// Which of the pages fetched before a user is created in (or deleted from) the second page
    /// answer differently afterwards, when fetched again at the same URLs.
    static func pagesChangedByAnInsertOrDeleteInPageTwo(_ style: MockPaginationStyle, pages: Int) -> [Int] {
        switch style {
        // Keyset: a page is "the items after key K"; only the page whose range holds the change changes.
        case .nextURL, .linksNext, .cursorNull, .cursorAbsent, .cursorEmpty, .cursorZero, .hasMore: [1]
        // Positions: every page from the change on shifts (the 404 of page-404 stays a 404).
        case .offset, .link: Array(1..<pages)
        case .page404: Array(1..<(pages - 1))
        // The total is in every page.
        case .offsetTotal: Array(0..<pages)
        }
    }

    @Test(arguments: styles, ["create", "delete"])
    func insertsAndDeletesChangeExactlyThePagesTheyShift(style: MockPaginationStyle, change: String) async throws {
        try await withMockServer(MockServerConfiguration(userCount: 23)) { server, client in
            let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "users", pageSize: 5)
            let before = try await walker.walk()
            let target = try #require(before[1].keys.first)
            if change == "create" {
                // Right after the first key of page 2 in key order (ids are usr_ and eight characters).
                let created = try await client.send(.post, "/users", json: #"{"id":"\#(target)0","name":"new"}"#)
                #expect(created.status == .created)
            } else {
                #expect(try await client.send(.delete, "/users/\(before[1].keys[2])").status == .noContent)
            }
            var changed: [Int] = []
            for (index, page) in before.enumerated() {
                let again = try await client.get(page.path)
                if again.headers[.eTag] != page.etag || Int(again.status.code) != page.status { changed.append(index) }
            }
            #expect(changed == Self.pagesChangedByAnInsertOrDeleteInPageTwo(style, pages: before.count))
        }
    }

    @Test(arguments: styles)
    func aHundredItemsPerPageIsTheLargestPage(style: MockPaginationStyle) async throws {
        try await withMockServer(MockServerConfiguration(postCount: 150)) { _, client in
            let size = style.paging == .pageNumber ? "per_page" : "limit"
            let page = try await client.get("/styles/\(style.rawValue)/posts?\(size)=100")
            #expect(page.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(page.text.utf8))
            let items = (json as? [Any]) ?? ((json as? [String: Any])?[StyleWalker.itemsMember(style)] as? [Any])
            #expect(items?.count == 100)
            let tooLarge = try await client.get("/styles/\(style.rawValue)/posts?\(size)=101")
            #expect(tooLarge.status == .badRequest && tooLarge.errorMessage?.contains(size) == true)
        }
    }

    @Test func postsIsTheCursorZeroStyleAndItsBytesAreTheContractEncoding() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 12)) { _, client in
            let posts = try await client.get("/posts?limit=5")
            let styled = try await client.get("/styles/cursor-zero/posts?limit=5")
            #expect(posts.text == styled.text && posts.headers[.eTag] == styled.headers[.eTag])
            let page = try posts.decoded(CursorPage<Post>.self)
            #expect(posts.text == String(decoding: try JSONEncoder.api().encode(page), as: UTF8.self))
        }
    }

    @Test func nextURLAndLinksNextLeadBackWithTheirPreviousLinks() async throws {
        try await withMockServer(MockServerConfiguration(postCount: 23)) { server, client in
            for style in [MockPaginationStyle.nextURL, .linksNext] {
                let walker = StyleWalker(client: client, baseURL: server.baseURL, style: style, collection: "posts", pageSize: 5)
                let pages = try await walker.walk()
                let third = try JSONSerialization.jsonObject(with: Data(try await client.get(pages[2].path).text.utf8)) as? [String: Any]
                let previous = style == .nextURL ? third?["previous"] : (third?["links"] as? [String: Any])?["prev"]
                let url = try #require(previous as? String)
                let back = try await client.get(String(url.dropFirst(server.baseURL.count)))
                let items = try JSONSerialization.jsonObject(with: Data(back.text.utf8)) as? [String: Any]
                let keys = (items?[StyleWalker.itemsMember(style)] as? [[String: Any]])?.map { "\($0["id"] ?? "?")" }
                #expect(keys == pages[1].keys)
            }
        }
    }

    @Test func getNameServesTheStyleChosenWithStyle() async throws {
        try await withMockServer(MockServerConfiguration(defaultStyle: .hasMore)) { _, client in
            let page = try JSONSerialization.jsonObject(with: Data(try await client.get("/users?limit=2").text.utf8)) as? [String: Any]
            #expect(page?["has_more"] as? Bool == true && page?["url"] as? String == "/users")
        }
    }

    @Test func stylesIndexListsEveryStyleWithItsURLs() async throws {
        try await withMockServer { server, client in
            let index = try JSONSerialization.jsonObject(with: Data(try await client.get("/styles").text.utf8)) as? [String: Any]
            let styles = try #require(index?["styles"] as? [[String: Any]])
            #expect(styles.compactMap { $0["name"] as? String } == MockPaginationStyle.allCases.map(\.rawValue))
            let urls = styles.first?["urls"] as? [String: String]
            #expect(urls?["users"] == "\(server.baseURL)/styles/link/users")
        }
    }

    @Test(arguments: ["starting_after=", "limit=2&limit=3", "cursor=a0", "starting_after=x"])
    func emptyRepeatedOrMalformedParametersGetA400NamingThem(query: String) async throws {
        try await withMockServer { _, client in
            let style = query.hasPrefix("starting_after") ? "has-more/posts" : "cursor-null/posts"
            let response = try await client.get("/styles/\(style)?\(query)")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.contains("'\(query.prefix { $0 != "=" })'") == true)
        }
    }

    // MARK: Helpers

    /// Every key of `collection` in key order, as text.
    static func allKeys(_ client: MockClient, _ collection: String) async throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(try await client.get("/styles/offset/\(collection)?limit=100").text.utf8))
        let items = try #require((json as? [String: Any])?["items"] as? [[String: Any]])
        return items.map { "\($0["id"] ?? "?")" }
    }
}
