import Foundation
import Models
import Storage
import Testing

@Suite("Item database (SQLite)")
struct ItemDatabaseTests {
    func post(_ id: Int, title: String = "제목 title") -> Post {
        Post(id: id, title: title, body: "본문 body", author: "민지", updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    func page(_ index: Int, next: String) -> SyncedPage {
        SyncedPage(resource: "http://o.test/posts", pageIndex: index, cursor: index == 0 ? nil : "c\(index)", nextCursor: next,
                   itemCount: 2, syncedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func upsertsPostsByIdAndRecordsThePageCursor() throws {
        let directory = try TemporaryDirectory()
        let database = try ItemDatabase(path: directory.file("data.sqlite"))
        try database.savePage([post(1), post(2)], page: page(0, next: "c1"), syncRun: "run-1")
        try database.savePage([post(2, title: "바뀐 제목"), post(3)], page: page(1, next: "0"), syncRun: "run-1")
        let posts = try database.posts()
        #expect(posts.map(\.id) == [1, 2, 3])
        #expect(posts[1].title == "바뀐 제목")
        #expect(try database.pages(of: "http://o.test/posts").map(\.nextCursor) == ["c1", "0"])
        #expect(try database.resources() == ["http://o.test/posts"])
    }

    @Test func severalOpenersOfOneNewFileAllSucceed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask { try ItemDatabase(path: path).savePage([post(index)], page: page(index, next: "0"), syncRun: "run-1") }
            }
            try await group.waitForAll()
        }
        #expect(try ItemDatabase(path: path).posts().count == 6)
    }

    @Test func finishingASyncDeletesThePostsItDidNotSee() throws {
        let directory = try TemporaryDirectory()
        let database = try ItemDatabase(path: directory.file("data.sqlite"))
        try database.savePage([post(1), post(2), post(3)], page: page(0, next: "0"), syncRun: "run-1")
        try database.savePage([post(1), post(3)], page: page(0, next: "0"), syncRun: "run-2")
        #expect(try database.finishSync(of: "http://o.test/posts", run: "run-2", lastPageIndex: 0) == 1)
        #expect(try database.posts().map(\.id) == [1, 3])
    }

    @Test func dataSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        try ItemDatabase(path: directory.file("data.sqlite")).savePage([post(1)], page: page(0, next: "0"), syncRun: "run-1")
        #expect(try ItemDatabase(path: directory.file("data.sqlite")).posts() == [post(1)])
    }

    @Test func corruptedItemDatabaseIsReportedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            try ItemDatabase(path: path)
        } throws: { error in
            guard case StorageError.corrupted = error else { return false }
            return true
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
    }

    @Test func observationDeliversTheStoredPostsThenEachChange() async throws {
        let directory = try TemporaryDirectory()
        let database = try ItemDatabase(path: directory.file("data.sqlite"))
        try database.savePage([post(1)], page: page(0, next: "0"), syncRun: "run-1")
        var iterator = database.observePosts().makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.id) == [1])
        try database.savePage([post(2)], page: page(1, next: "0"), syncRun: "run-1")
        #expect(try await iterator.next()?.map(\.id) == [1, 2])
    }
}
