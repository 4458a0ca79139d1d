import MirrorStore
import Pagination
import Testing

/// Where an unfinished pass goes on, read from the pages it wrote as a store hands them over.
@Suite("Resuming a pass from the pages it wrote")
struct PassResumingTests {
    @Test func anUnbrokenRunGoesOnAfterItsLastPageWithTheirDigests() {
        var resuming = PassPosition.Resuming(pass: 4)
        resuming.add(index: 0, url: "http://o.test/posts", nextURL: "http://o.test/posts?page=2")
        resuming.add(index: 1, url: "http://o.test/posts?page=2", nextURL: "http://o.test/posts?page=3")
        #expect(resuming.position == PassPosition(pass: 4, isResumed: true, nextPageIndex: 2, nextURL: "http://o.test/posts?page=3",
                                                  fetchedURLDigests: ["http://o.test/posts", "http://o.test/posts?page=2"].map(PageWalk.digest(ofURL:))))
    }

    @Test func noPageWrittenIsNothingToResume() {
        #expect(PassPosition.Resuming(pass: 4).position == nil)
    }

    @Test func aGapInTheRunIsNothingToResume() {
        var resuming = PassPosition.Resuming(pass: 4)
        resuming.add(index: 0, url: "http://o.test/posts", nextURL: "http://o.test/posts?page=2")
        resuming.add(index: 2, url: "http://o.test/posts?page=3", nextURL: nil)
        #expect(resuming.position == nil)
    }
}
