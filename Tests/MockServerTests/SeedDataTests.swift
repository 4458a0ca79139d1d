import Models
import Testing

@testable import MockServer

@Suite("Seeded data")
struct SeedDataTests {
    @Test func sameSeedGivesIdenticalBytesOnSeparateServers() async throws {
        let first = try await withMockServer(MockServerConfiguration(seed: 7)) { _, client in
            try await client.get("/posts?limit=100").text
        }
        let second = try await withMockServer(MockServerConfiguration(seed: 7)) { _, client in
            try await client.get("/posts?limit=100").text
        }
        let other = try await withMockServer(MockServerConfiguration(seed: 8)) { _, client in
            try await client.get("/posts?limit=100").text
        }
        #expect(first == second)
        #expect(first != other)
    }

    @Test func postsMixKoreanEnglishEmojiAndLongBodies() {
        let posts = SeedData(seed: 42, postCount: 100, articleCount: 0, feedCount: 0, userCount: 0, exerciseCount: 0).posts.posts(1...100)
        #expect(posts.count == 100)
        let text = posts.map { $0.title + $0.body }.joined()
        #expect(text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) })
        #expect(text.unicodeScalars.contains { $0.properties.isEmojiPresentation })
        #expect(text.contains { $0.isASCII && $0.isLetter })
        #expect(posts.contains { $0.body.count > 600 })
    }

    @Test func updatedAtIsWholeSecondsAfterTheFixedEpoch() {
        let posts = SeedData(seed: 42, postCount: 30, articleCount: 0, feedCount: 0, userCount: 0, exerciseCount: 0).posts.posts(1...30)
        #expect(posts.count == 30)
        for post in posts {
            let offset = post.updatedAt.timeIntervalSince(SeedData.epoch)
            #expect(offset > 0 && offset == offset.rounded())
        }
    }

    @Test func splitMix64IsStableForAGivenSeed() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}
