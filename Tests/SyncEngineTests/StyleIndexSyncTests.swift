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

/// fresh-mock's own `/styles` document: a user who syncs what it lists gets every item.
@Suite("Every URL /styles lists syncs whole")
struct StyleIndexSyncTests {
    @Test func everyListedURLSyncsEveryItem() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration(postCount: 45, userCount: 23))
        let response = try await SyncFixture().services.client.send(TransportRequest(method: .get, url: URL(string: "\(server.baseURL)/styles")!))
        let index = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        let styles = index?["styles"] as? [[String: Any]] ?? []
        #expect(styles.count == 11)
        for style in styles {
            for (collection, url) in style["urls"] as? [String: String] ?? [:] {
                let fixture = try SyncFixture()
                let summary = try await fixture.sync(url)
                #expect(summary.complete && summary.totalItems == (collection == "posts" ? 45 : 23), "\(url): \(summary.totalItems) items")
            }
        }
        await server.stop()
    }
}
