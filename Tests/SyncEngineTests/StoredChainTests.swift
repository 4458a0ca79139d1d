import Foundation
import MirrorStore
@testable import SyncEngine
import Synchronization
import Testing

@Suite("The stored chain: the last pass's page records, a window at a time")
struct StoredChainTests {
    /// A store of `count` page records, which notes each range it is asked for.
    final class Records: Sendable {
        let count: Int
        let ranges = Mutex<[Range<Int>]>([])
        init(count: Int) { self.count = count }

        func read(_ range: Range<Int>) -> [Int: PageRecord] {
            ranges.withLock { $0.append(range) }
            return Dictionary(uniqueKeysWithValues: range.clamped(to: 0..<count).map { index in
                (index, PageRecord(collectionID: 1, pageIndex: index, url: "https://api.test/items?page=\(index)", nextURL: nil,
                                   itemCount: 10, validator: "etag \"\(index)\"", pass: 1, contentPass: 1, fetchedAt: 0,
                                   statedTotal: nil))
            })
        }
    }

    /// The page validators, as a set of the URLs they hold.
    final class Validators: PageValidators {
        let held = Mutex<Set<URL>>([])
        let most = Mutex(0)
        func remember(_ tags: [PageETag]) {
            held.withLock { held in
                held.formUnion(tags.map(\.url))
                most.withLock { $0 = max($0, held.count) }
            }
        }
        func forget(_ urls: [URL]) { held.withLock { $0.subtract(urls) } }
        func drain() {}
    }

    func chain(over records: Records, validators: Validators, readsAhead: Bool) -> StoredChain {
        StoredChain(readingWith: { records.read($0) }, validators: validators, readsAhead: readsAhead)
    }

    @Test(arguments: [false, true])
    func aWalkFindsEveryRecordAndHoldsAWindowAtMost(readsAhead: Bool) async throws {
        let records = Records(count: 1_300)
        let validators = Validators()
        let chain = chain(over: records, validators: validators, readsAhead: readsAhead)
        for index in 0..<records.count {
            try await chain.prepare(from: index)
            for ahead in index...min(index + SyncPass.maximumLookahead, records.count - 1) {
                #expect(chain[ahead]?.pageIndex == ahead)
            }
        }
        let read = records.ranges.withLock { $0 }
        // Read ahead, the records come half a window at a time, each range after the one before.
        let size = readsAhead ? StoredChain.windowSize / 2 : StoredChain.windowSize
        #expect(read.allSatisfy { $0.count == size })
        if readsAhead { #expect(zip(read, read.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }) }
        #expect(read.last.map { $0.upperBound >= records.count } == true)
        #expect(validators.most.withLock { $0 } <= StoredChain.windowSize)
        chain.close()
        #expect(validators.held.withLock { $0.isEmpty })
    }

    @Test func aWalkThatGoesBackReadsFromWhereItIs() async throws {
        let records = Records(count: 2_000)
        let chain = chain(over: records, validators: Validators(), readsAhead: true)
        for index in 0..<600 { try await chain.prepare(from: index) }
        // A revisit starts again at the first page: what was read ahead does not hold it.
        try await chain.prepare(from: 0)
        #expect(chain[0]?.pageIndex == 0 && chain[8]?.pageIndex == 8)
        #expect(records.ranges.withLock { $0.filter { $0 == 0..<StoredChain.windowSize / 2 }.count } == 2)
        chain.close()
    }

    @Test func aFailedReadAheadIsThePreparesError() async throws {
        struct ReadFailed: Error {}
        let reads = Mutex(0)
        let chain = StoredChain(readingWith: { range in
            let read = reads.withLock { $0 += 1; return $0 }
            if read > 1 { throw ReadFailed() }
            return Records(count: 1_000).read(range)
        }, validators: Validators(), readsAhead: true)
        try await chain.prepare(from: 0)
        // The first half window came; the second, read ahead, failed: the walk hears it when it needs it.
        await #expect(throws: ReadFailed.self) {
            for index in 1..<StoredChain.windowSize { try await chain.prepare(from: index) }
        }
        chain.close()
    }

    @Test func theLastRecordsEndTheReadingAhead() async throws {
        let records = Records(count: 300)
        let chain = chain(over: records, validators: Validators(), readsAhead: true)
        for index in 0..<records.count { try await chain.prepare(from: index) }
        #expect(chain[299]?.pageIndex == 299 && chain[300] == nil)
        // 0..<256, then 256..<512, which held fewer than asked: nothing is read past it.
        #expect(records.ranges.withLock { $0 } == [0..<256, 256..<512])
        chain.close()
    }
}
