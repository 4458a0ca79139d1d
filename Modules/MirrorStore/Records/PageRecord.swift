import Foundation
import JSON
import Pagination

/// One page of a collection as last fetched.
public struct PageRecord: Sendable, Equatable {
    public var collectionID: Int64
    /// 0 for the first page.
    public var pageIndex: Int
    /// The URL that was requested.
    public var url: String
    /// The next page's URL; `nil` on the last page.
    public var nextURL: String?
    public var itemCount: Int
    /// What identifies the content written for this page: its ETag, or a digest of the body.
    public var validator: String?
    /// The last pass that fetched the page.
    public var pass: Int
    /// The pass that last wrote its items.
    public var contentPass: Int
    public var fetchedAt: Double
    /// The collection size the page stated (items, else pages), for offset and page-number styles.
    public var statedTotal: Int?

    public init(collectionID: Int64, pageIndex: Int, url: String, nextURL: String?, itemCount: Int, validator: String?, pass: Int,
                contentPass: Int, fetchedAt: Double, statedTotal: Int?) {
        self.collectionID = collectionID
        self.pageIndex = pageIndex
        self.url = url
        self.nextURL = nextURL
        self.itemCount = itemCount
        self.validator = validator
        self.pass = pass
        self.contentPass = contentPass
        self.fetchedAt = fetchedAt
        self.statedTotal = statedTotal
    }

    /// Whether a total the page stated is what said the next page exists.
    public var totalSaysMore: Bool { nextURL != nil && statedTotal != nil }
}

/// What writing one page changed.
public struct PageWrite: Sendable, Equatable {
    /// Items the collection did not have.
    public var created = 0
    /// Items whose JSON changed.
    public var changed = 0
    /// Items an earlier page of the pass listed already, left where they were (``PageContent/repeatsAllowed``).
    public var repeated = 0

    public init(created: Int = 0, changed: Int = 0, repeated: Int = 0) {
        self.created = created
        self.changed = changed
        self.repeated = repeated
    }
}

/// A key seen on two pages of one pass.
public struct DuplicateKey: Error, Sendable, Equatable {
    /// The key as SQLite returned it (an integer or a string).
    public var key: String
    /// The page of this pass that already lists it.
    public var pageIndex: Int
    /// The page that lists it again (nothing of it was written).
    public var foundOnPage: Int
    /// What the pages written before it changed.
    public var written: [PageWrite]

    public init(key: String, pageIndex: Int, foundOnPage: Int, written: [PageWrite]) {
        self.key = key
        self.pageIndex = pageIndex
        self.foundOnPage = foundOnPage
        self.written = written
    }
}

/// Where a sync starts: a new pass's first page, or the page after an unfinished pass's last one.
public struct PassPosition: Sendable, Equatable {
    public var pass: Int
    /// Whether this continues a pass an earlier sync did not finish.
    public var isResumed: Bool
    /// The index of the next page to fetch.
    public var nextPageIndex: Int
    /// The URL of that page; `nil` for the first page (the collection's URL), or when the
    /// resumed pass had already reached the last page.
    public var nextURL: String?
    /// The URLs of the pages the pass has fetched, in order, as their digests
    /// (``PageWalk/digest(ofURL:)``), for loop detection: 8 bytes a page, where the URLs of a
    /// resumed pass of 100,000 pages and their rows took some 40 MB.
    public var fetchedURLDigests: [UInt64]

    public init(pass: Int, isResumed: Bool, nextPageIndex: Int, nextURL: String?, fetchedURLDigests: [UInt64]) {
        self.pass = pass
        self.isResumed = isResumed
        self.nextPageIndex = nextPageIndex
        self.nextURL = nextURL
        self.fetchedURLDigests = fetchedURLDigests
    }
}

extension PassPosition {
    /// Where an unfinished pass stands, from the pages it wrote, handed over one at a time in the
    /// order of their index as a store reads them (no list of them is held): after the run 0, 1,
    /// 2, …, as pages are fetched in order.
    public struct Resuming {
        private let pass: Int
        private var digests: [UInt64] = []
        private var lastNextURL: String?
        private var hasGap = false

        /// Reading where `pass` stands, no page given yet.
        public init(pass: Int) { self.pass = pass }

        /// The next page the pass wrote, in the order of their index: its URL and the next page's.
        public mutating func add(index: Int, url: String, nextURL: String?) {
            if index != digests.count { hasGap = true }
            digests.append(PageWalk.digest(ofURL: url))
            lastNextURL = nextURL
        }

        /// `nil` when there is nothing to resume: no page written (resumed, such a pass would end
        /// at once and remove every item), or a gap in the run.
        public var position: PassPosition? {
            guard !digests.isEmpty, !hasGap else { return nil }
            return PassPosition(pass: pass, isResumed: true, nextPageIndex: digests.count, nextURL: lastNextURL, fetchedURLDigests: digests)
        }
    }
}

/// One page as a sync hands it to the mirror.
public struct PageContent: Sendable {
    public var index: Int
    /// The URL requested, and the next page's (`nil` on the last page).
    public var url: String
    public var nextURL: String?
    /// What identifies the content (see the sync's content validator).
    public var validator: String?
    /// The items in order, each its key and its UTF-8 JSON without insignificant whitespace;
    /// `nil` when the content stored for this page is current.
    public var items: [(key: ItemKey, json: Data)]?
    /// The collection size the page states (see ``PageRecord/statedTotal``).
    public var statedTotal: Int?
    /// Whether a key an earlier page of this pass listed means the listing moved (`PositionalPages`)
    /// rather than a key that is not unique: the item stays where it was first listed, and the
    /// page keeps its other items (``PageWrite/repeated`` counts it).
    public var repeatsAllowed: Bool
    /// The page without its items, kept with them for a replay; `nil` when its body was not one
    /// JSON document holding them (or when ``items`` is `nil`: the stored envelope is current).
    public var envelope: PageEnvelope?

    public init(index: Int, url: String, nextURL: String?, validator: String?, items: [(key: ItemKey, json: Data)]?,
                statedTotal: Int? = nil, repeatsAllowed: Bool = false, envelope: PageEnvelope? = nil) {
        self.index = index
        self.url = url
        self.nextURL = nextURL
        self.validator = validator
        self.items = items
        self.statedTotal = statedTotal
        self.repeatsAllowed = repeatsAllowed
        self.envelope = envelope
    }
}
