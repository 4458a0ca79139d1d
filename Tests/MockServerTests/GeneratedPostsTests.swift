import Foundation
import JSON
import Models
import Testing

@testable import MockServer

/// `--posts N` made when asked for: the same posts as made one after another, wherever a read
/// starts, and a generated collection that changes as a held one does.
@Suite("Generated posts")
struct GeneratedPostsTests {
    static let seed: UInt64 = 42

    @Test func postsReadFromAnywhereAreThoseMadeInOrder() {
        let count = 3 * GeneratedPosts.stride + 17
        let inOrder = SeedData.posts(seed: Self.seed, count: count, hostileText: true)
        let generated = GeneratedPosts(seed: Self.seed, count: count, hostileText: true)
        // Far first (every post before it drawn once), then back, then across a kept state.
        #expect(generated.posts(count - 9...count) == Array(inOrder[(count - 10)...]))
        #expect(generated.posts(1...5) == Array(inOrder[0..<5]))
        let stride = GeneratedPosts.stride
        #expect(generated.posts(stride - 3...stride + 3) == Array(inOrder[(stride - 4)..<(stride + 3)]))
        #expect(GeneratedPosts(seed: Self.seed, count: count, hostileText: true).posts(2 * stride...2 * stride + 1)
            == Array(inOrder[(2 * stride - 1)...(2 * stride)]))
    }

    /// The same seeded edits, creations and deletions applied to a generated list and to a
    /// held copy of its items leave the two with the same items, the same keys at every index.
    @Test func aGeneratedListChangesAsAHeldOne() {
        let posts = GeneratedPosts(seed: Self.seed, count: 300, hostileText: false)
        var generated = ItemCollection(name: "posts", generated: posts, baseline: SeedData.epoch)
        var held = ItemCollection(name: "posts", keyField: "id", keyKind: .integer, items: generated.items.all,
                                  baseline: SeedData.epoch)
        var random = SplitMix64(seed: 7)
        let date = SeedData.epoch.addingTimeInterval(1_000_000)
        for step in 0..<400 {
            let roll = random.next(below: 100)
            let key = held.items.key(at: random.next(below: held.count))
            if roll < 40, var post = held.item(key)?.post {
                post.title = "edited \(step)"
                post.updatedAt = date
                #expect(generated.replace(MockItem(post: post)) == held.replace(MockItem(post: post)))
            } else if roll < 70 {
                #expect(generated.remove(key) == held.remove(key))
            } else {
                // A new id, or one removed before: both lists take it where it belongs.
                let id = roll < 85 ? held.makeIntegerKey() : random.next(below: 300) + 1
                _ = generated.makeIntegerKey()
                let post = Post(id: id, title: "new \(step)", body: "", author: "", updatedAt: date)
                #expect(generated.insert(MockItem(post: post)) == held.insert(MockItem(post: post)))
            }
            #expect(generated.count == held.count)
        }
        #expect(generated.items.all == held.items.all)
        #expect((0..<held.count).allSatisfy { generated.items.key(at: $0) == held.items.key(at: $0) })
        #expect(generated.firstIndex(after: .integer(150)) == held.firstIndex(after: .integer(150)))
    }

    /// What the store counts for a kept body of 1,000 bytes (too small to compress, so kept as it
    /// is): its buffer's storage and its validators.
    private static let keptSize = Representation(
        exactly: RepresentationContent(body: Data(count: 1_000), changed: .exactly(SeedData.epoch))).byteCount

    @Test func aKeptRepresentationCountsTheMemoryItHolds() throws {
        // A body that compresses well; the compressor's buffer had room for the whole of it.
        let page = Data(String(repeating: "{\"id\":1,\"title\":\"게시물 제목\",\"body\":\"본문\"},", count: 1_200).utf8)
        let representation = Representation(exactly: RepresentationContent(body: page, changed: .exactly(SeedData.epoch)))
        let gzip = try #require(representation.gzip)
        #expect(gzip.body.readableBytes * 8 < page.count)
        #expect(gzip.body.capacity < 2 * gzip.body.readableBytes, "the kept gzip body's buffer is sized for its bytes")
        // What the store counts is the buffers' room (a power of two), not only their bytes.
        #expect(representation.identity.body.capacity > page.count)
        #expect(representation.byteCount >= representation.identity.body.capacity + gzip.body.capacity + RepresentationValidators.fixedByteCount)
    }

    @Test func theStoreKeepsABoundedNumberOfBytes() {
        // Bodies of 1,000 bytes: 16 fill the budget.
        let store = MockStore(data: MockData(collections: [], seed: 1), byteBudget: 16 * Self.keptSize)
        var builds: [String: Int] = [:]
        func serve(_ key: String) {
            _ = store.representation(of: .documentation, key: key) { _ in
                builds[key, default: 0] += 1
                return RepresentationContent(body: Data(repeating: UInt8(key.count), count: 1_000), changed: .exactly(SeedData.epoch))
            }
        }
        serve("first")
        for index in 0..<15 { serve("page \(index)") }
        serve("first")
        #expect(builds["first"] == 1, "16 bodies fit")
        serve("page 15")
        // Past the budget the least recently served half went, `page 0` with it; `first`, served
        // since, and the last pages stayed.
        serve("page 0")
        serve("first")
        serve("page 14")
        #expect(builds["page 0"] == 2)
        #expect(builds["first"] == 1)
        #expect(builds["page 14"] == 1)
    }

    @Test func aPageWhoseBodyWentStillAnswersA304WithItsValidators() throws {
        // Bodies of 1,000 bytes, 4 kept at most; room for the validators of 4 more.
        let store = MockStore(data: MockData(collections: [], seed: 1), byteBudget: 4 * Self.keptSize,
                              validatorBudget: 4 * RepresentationValidators.fixedByteCount)
        var builds: [String: Int] = [:]
        func serve(_ key: String, conditionally: Bool = false) -> Representation {
            store.representation(of: .documentation, key: key, answersWithoutBody: { _ in conditionally }) { _ in
                builds[key, default: 0] += 1
                return RepresentationContent(body: Data(repeating: UInt8(key.count), count: 1_000), changed: .notBefore(SeedData.epoch))
            }
        }
        let first = serve("page 0")
        for index in 1...4 { _ = serve("page \(index)") }
        // Past 4 bodies the older half kept only their validators: a 304 needs no building...
        let shed = serve("page 0", conditionally: true)
        #expect(builds["page 0"] == 1 && !shed.hasBodies)
        #expect(shed.entityTag == first.entityTag && shed.lastModifiedHeader == first.lastModifiedHeader)
        #expect(shed.identity.bodyLength == 1_000 && shed.identity.notModifiedHeaders == first.identity.notModifiedHeaders)
        // ...a 200 builds the page again, with the same validators, even after a write to the
        // dataset that left its bytes as they were (its Last-Modified does not move to the write).
        try store.write(.documentation, at: SeedData.epoch.addingTimeInterval(86_400)) { _, _ in }
        let whole = serve("page 0")
        #expect(builds["page 0"] == 2 && whole.hasBodies && whole.identity.body.readableBytes == 1_000)
        #expect(whole.entityTag == first.entityTag && whole.lastModifiedHeader == first.lastModifiedHeader)
    }

    @Test func pastTheValidatorsBudgetTheLeastRecentlyServedGoWhole() {
        let store = MockStore(data: MockData(collections: [], seed: 1), byteBudget: 4 * Self.keptSize,
                              validatorBudget: 4 * RepresentationValidators.fixedByteCount)
        var builds: [String: Int] = [:]
        func serve(_ key: String, conditionally: Bool = false) {
            _ = store.representation(of: .documentation, key: key, answersWithoutBody: { _ in conditionally }) { _ in
                builds[key, default: 0] += 1
                return RepresentationContent(body: Data(repeating: UInt8(key.count), count: 1_000), changed: .exactly(SeedData.epoch))
            }
        }
        for index in 0...4 { serve("page \(index)") }
        serve("page 1", conditionally: true)
        #expect(builds["page 1"] == 1, "page 1 kept its validators")
        // Bodies of 12 more pages: the validators kept pass their budget of 4, and the least
        // recently served (page 0 first) go whole.
        for index in 5...16 { serve("page \(index)") }
        serve("page 0", conditionally: true)
        serve("page 16", conditionally: true)
        #expect(builds["page 0"] == 2)
        #expect(builds["page 16"] == 1)
    }
}
