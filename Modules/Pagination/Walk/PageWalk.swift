import Foundation
import HTTPFields

/// One pass over a paginated collection, as a value: which page to ask for next, and when the
/// pass has ended and why. It fetches nothing: its user fetches the page ``next`` names, reads
/// it, and tells the walk what the page said, in two steps:
///
/// 1. ``follow(_:)``: where the page points (its ``PageLink``);
/// 2. ``count(items:)``: how many items it holds.
///
/// Between the two, ``next`` already names the following page, so a caller that reads a page's
/// link before its items (``PaginationPlan/linkAhead(of:)``) may send that request meanwhile. A
/// page answering "no such page" (a 404 past the last page) is told with ``pastTheEnd(status:)``.
///
/// The rules it keeps:
/// - a URL this pass has asked for already is a loop: an error, never a second request;
/// - ``Limits/maximumEmptyPages`` empty pages in a row that still point onward stop the walk,
///   so a server that pages forever cannot keep a sync running;
/// - a page missing where the page before promised it by a stated total is an error, not the
///   end, so a page lost for a moment cannot end the pass early;
/// - a stated total that changes during the pass ends it unsettled (``End/unsettled``): the
///   pages shifted under the walk, and an item no page listed may still exist;
/// - ``Limits/maximumPages`` pauses the walk (the next run resumes it);
/// - a pass that ends by resuming is not a consistent copy yet (the pages read before the stop
///   may have changed): a second walk revisits them (``init(revisiting:rejoining:after:limits:)``).
public struct PageWalk: Sendable {
    public enum Next: Sendable, Equatable {
        /// Fetch page `index` (0 for the first) at `url`.
        case page(index: Int, url: URL)
        /// The pass is over.
        case end(End)
        /// This run has read as many pages as it may; the pass goes on next time.
        case pause
    }

    /// How a pass ended.
    public struct End: Sendable, Equatable {
        /// Why the last page is the last (`'next_cursor' is null`, `page 5 answered 404: …`).
        public var reason: String
        /// Why the items no page listed must not be taken as gone (its stated total moved); `nil`: settled.
        public var unsettled: String?
        /// The index of the pass's last page (-1 when it has none): a page stored beyond it is gone.
        public var lastPage: Int

        public init(reason: String, unsettled: String?, lastPage: Int) {
            self.reason = reason
            self.unsettled = unsettled
            self.lastPage = lastPage
        }
    }

    /// How far a walk may go.
    public struct Limits: Sendable, Equatable {
        /// Empty pages in a row, each still pointing onward, that stop the walk.
        public var maximumEmptyPages: Int
        /// Pages one run may read before it pauses; `nil` for no limit.
        public var maximumPages: Int?

        public init(maximumEmptyPages: Int = 5, maximumPages: Int? = nil) {
            self.maximumEmptyPages = maximumEmptyPages
            self.maximumPages = maximumPages
        }
    }

    /// Where an unfinished pass stood when its run stopped.
    public struct ResumePoint: Sendable, Equatable {
        /// The page to read next, and its URL; `nil` when the pass had read its last page.
        public var index: Int
        public var url: URL?
        /// Every page URL the pass asked for before, in order, as its ``PageWalk/digest(ofURL:)``.
        public var readURLDigests: [UInt64]
        /// The item count of the first page (see ``typicalSize``).
        public var firstPageSize: Int?
        /// What the page before said of the collection: the total it stated, and whether that
        /// total is what said this page exists.
        public var statedTotal: Int?
        public var totalSaysMore: Bool

        public init(index: Int, url: URL?, readURLDigests: [UInt64], firstPageSize: Int?, statedTotal: Int?, totalSaysMore: Bool) {
            self.index = index
            self.url = url
            self.readURLDigests = readURLDigests
            self.firstPageSize = firstPageSize
            self.statedTotal = statedTotal
            self.totalSaysMore = totalSaysMore
        }
    }

    /// What the walk asks for next.
    public private(set) var next: Next
    /// The collection's size as the pass's first page to state one said it.
    public private(set) var statedTotal: Int?
    /// The number of items a full page holds when its URL does not say: the first page's count,
    /// for the short-page rule of offset and page-number styles.
    public private(set) var typicalSize: Int?

    private let limits: Limits
    /// Every page URL of this pass so far, as its 64-bit digest (8 bytes a page, where the URLs
    /// of 100,000 pages took 15 MB): one seen again would loop. Two URLs of a pass sharing a
    /// digest, which would end it as a loop, is a chance of about 3 in 10^10 at 100,000 pages.
    private var seen: Set<UInt64>
    /// The page followed and not yet counted: its index, URL, whether it pointed onward, and the total it stated.
    private var uncounted: (index: Int, url: URL, pointsOnward: Bool, statedTotal: Int?)?
    private var emptyRun = 0
    /// The last page followed stated a total that says the next page exists.
    private var totalSaysMore = false
    /// How the collection size the pass's pages state changed during the pass.
    public var totalChange: String? { totalsArePageCounts ? nil : change }
    /// How the stated total fell from one page to a later one of this run, if it did: items were
    /// removed ahead of pages still to read, which pulled others back onto pages read already (no
    /// page of the pass lists them).
    public var totalFall: String? { totalsArePageCounts ? nil : fall }
    private var change: String?
    private var fall: String?
    /// Whether every page that stated a "total" listed exactly that many items: then the member
    /// counts the page's own items (some envelopes' `count` does), and its changes say nothing
    /// of the collection (a short last page is no fall).
    private var totalsArePageCounts = true
    /// The total the last page that stated one stated.
    private var lastStatedTotal: Int?
    private var pagesRead = 0
    /// Pages read already (revalidated before the walk), stepped over when reached at the same URL.
    private var readBefore: [Int: (url: URL, link: PageLink)] = [:]
    /// Where a walk revisiting a resumed pass rejoins the pages read after the resume, and how it ended.
    private var rejoin: (index: Int, url: URL, end: End)?

    /// A new pass from the first page.
    public init(first url: URL, limits: Limits = Limits()) {
        next = .page(index: 0, url: url)
        seen = [Self.digest(url)]
        self.limits = limits
    }

    /// The rest of an unfinished pass.
    public init(resuming point: ResumePoint, limits: Limits = Limits()) {
        self.limits = limits
        seen = Set(point.readURLDigests)
        typicalSize = point.firstPageSize
        statedTotal = point.statedTotal
        // The run before read up to here: a fall from its last page to the next one counts too.
        lastStatedTotal = point.statedTotal
        totalSaysMore = point.totalSaysMore
        if let url = point.url {
            seen.insert(Self.digest(url))
            next = .page(index: point.index, url: url)
        } else {
            next = .end(End(reason: "the pass had reached the last page", unsettled: nil, lastPage: point.index - 1))
        }
    }

    /// The second walk of a pass that ended by resuming at `rejoining` (the page index and URL
    /// the run resumed at, `nil` when it resumed past the last page): from the first page again,
    /// ending where it comes back to that page at that URL, with `pass`'s end. When the chain of
    /// pages has changed it goes on to the real end. The stated total `pass` saw still counts.
    public init(revisiting first: URL, rejoining: (index: Int, url: URL)?, after pass: PageWalk, limits: Limits = Limits()) {
        guard case .end(let end) = pass.next else { preconditionFailure("revisit a pass that has ended") }
        self.init(first: first, limits: limits)
        statedTotal = pass.statedTotal
        (change, fall, lastStatedTotal, totalsArePageCounts) = (pass.change, pass.fall, pass.lastStatedTotal, pass.totalsArePageCounts)
        rejoin = rejoining.map { ($0.index, $0.url, end) }
    }

    // MARK: Telling the walk what a page said

    /// Page `next` names points onward by `link`: ``next`` becomes the page after it, or the end.
    public mutating func follow(_ link: PageLink) throws(PageWalkError) {
        guard case .page(let index, let url) = next, uncounted == nil else {
            preconditionFailure("follow(_:) needs a page to read, and the page before it counted")
        }
        uncounted = (index, url, link.next != nil, link.statedTotal)
        pagesRead += 1
        try advance(past: index, by: link)
        if case .page = next, let maximum = limits.maximumPages, pagesRead >= maximum { next = .pause }
        try stepOverPagesReadBefore()
    }

    /// The page last followed holds `count` items; `listedAfter`: the last pass read items on the
    /// pages after it.
    ///
    /// An empty page that ends the pass before pages the last pass read items on is taken as a
    /// 404 there is (``pastTheEnd(status:wasStored:)``): the listing was cut short, or the server
    /// answered wrongly for a while. The end is unsettled, and nothing is removed this time; the
    /// next sync, whose records then end at this page, settles it.
    public mutating func count(items count: Int, listedAfter: Bool = false) throws(PageWalkError) {
        guard let page = uncounted else { preconditionFailure("count(items:) needs a page followed and not yet counted") }
        uncounted = nil
        if let stated = page.statedTotal, stated != count { totalsArePageCounts = false }
        if page.index == 0, count > 0 { typicalSize = count }
        emptyRun = count == 0 && page.pointsOnward ? emptyRun + 1 : 0
        if emptyRun >= limits.maximumEmptyPages { throw .emptyPages(url: page.url, count: emptyRun) }
        if count == 0, listedAfter, case .end(var end) = next, end.unsettled == nil, end.lastPage == page.index {
            end.unsettled = "page \(page.index + 1) lists nothing, where the last pass read items on the pages after it"
            next = .end(end)
        }
    }

    /// Page `next` names answered `status`, read as "no such page": the end, unless the page before
    /// promised it. When the last pass had read that page (`wasStored`), the listing shrank, or the
    /// server answered wrongly for a while: the end is unsettled, and nothing is removed this time.
    public mutating func pastTheEnd(status: Int, wasStored: Bool = false) throws(PageWalkError) {
        guard case .page(let index, let url) = next, uncounted == nil else {
            preconditionFailure("pastTheEnd(status:) needs a page to read, and the page before it counted")
        }
        if totalSaysMore { throw .missingPage(url: url, status: status) }
        let stored = wasStored ? "page \(index + 1) was there in the last pass" : nil
        next = .end(End(reason: "page \(index + 1) answered \(status): past the last page", unsettled: totalChange ?? stored, lastPage: index - 1))
    }

    /// Pages read before the walk reaches them (revalidated first, by index): when the walk comes
    /// to one at the URL it was read at, it follows that page's link without asking for it again.
    public mutating func stepOver(_ pages: [Int: (url: URL, link: PageLink)]) throws(PageWalkError) {
        readBefore = pages
        try stepOverPagesReadBefore()
    }

    // MARK: Rules

    private mutating func advance(past index: Int, by link: PageLink) throws(PageWalkError) {
        totalSaysMore = link.totalSaysMore
        if let total = link.statedTotal {
            if let statedTotal, statedTotal != total, change == nil {
                change = "the collection's stated total changed from \(statedTotal) to \(total) while the pass read it"
            }
            if let last = lastStatedTotal, total < last, fall == nil {
                fall = "the collection's stated total fell from \(last) to \(total) while the pass read it"
            }
            lastStatedTotal = total
            statedTotal = statedTotal ?? total
        }
        guard let following = link.next else {
            next = .end(End(reason: link.endReason ?? "no next page", unsettled: totalChange, lastPage: index))
            return
        }
        guard seen.insert(Self.digest(following)).inserted else { throw .loop(url: following, afterPage: index) }
        next = .page(index: index + 1, url: following)
        if let rejoin, rejoin.index == index + 1, rejoin.url == following {
            next = .end(End(reason: rejoin.end.reason, unsettled: totalChange, lastPage: rejoin.end.lastPage))
        }
    }

    private mutating func stepOverPagesReadBefore() throws(PageWalkError) {
        while case .page(let index, let url) = next, let page = readBefore[index], page.url == url {
            try advance(past: index, by: page.link)
        }
    }
}

/// Why a walk stopped before its end (the sync says each in its own words, see `SyncError`).
public enum PageWalkError: Error, Sendable, Equatable {
    /// The page after page `afterPage` (from 0) is one this pass asked for already.
    case loop(url: URL, afterPage: Int)
    /// `count` empty pages in a row still pointed onward; `url` is the last of them.
    case emptyPages(url: URL, count: Int)
    /// The page at `url` answered `status`, but the page before it states a total that says it exists.
    case missingPage(url: URL, status: Int)
}

extension PageWalk {
    /// What ``seen`` keeps of a page's URL.
    private static func digest(_ url: URL) -> UInt64 { digest(ofURL: url.absoluteString) }

    /// The digest a walk knows a page's URL by (see `seen`), from the URL's text.
    public static func digest(ofURL text: String) -> UInt64 { FNV1a64.hash(Array(text.utf8)) }
}
