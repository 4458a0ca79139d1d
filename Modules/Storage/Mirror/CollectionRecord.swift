import Foundation
import GRDB

/// One mirrored collection: where it comes from, how its pages are read, and where its
/// current pass stands.
public struct CollectionRecord: Codable, FetchableRecord, Sendable, Equatable {
    public static let databaseTableName = "collection"

    public var id: Int64
    /// The name commands use (`fresh items NAME`, `fresh-reader --collection NAME`).
    public var name: String
    /// The first page's URL as the user gave it (page size included, credentials removed).
    public var url: String
    /// The pagination plan as JSON (style, item path, key, size parameter); `nil` until the
    /// first page has been read.
    public var plan: String?
    public var createdAt: Double
    /// The current or last pass: every page is written with the pass that fetched it.
    public var pass: Int
    /// Whether ``pass`` reached the last page; an unfinished pass is resumed by the next sync.
    public var passComplete: Bool
    public var passStartedAt: Double?
    /// When a pass last reached the last page.
    public var lastCompleteAt: Double?
    /// When a sync last ran, finished or not.
    public var lastSyncAt: Double?
    /// Why the last sync stopped, when it failed.
    public var lastError: String?
    /// Page writes so far; items carry the number of the write that created or changed them.
    public var changeSequence: Int
    /// The ``changeSequence`` a reader last showed the collection at: items changed by a later
    /// write are new to its user. `nil` until a reader has shown it.
    public var shownSequence: Int?
}

/// One page of a collection as last fetched.
public struct PageRecord: Codable, FetchableRecord, Sendable, Equatable {
    public static let databaseTableName = "page"

    public var collectionID: Int64
    /// 0 for the first page.
    public var pageIndex: Int
    /// The URL that was requested.
    public var url: String
    /// The next page's URL; `nil` on the last page.
    public var nextURL: String?
    public var itemCount: Int
    /// What identifies the content written for this page (its ETag, or a digest of the body),
    /// so a 304 or a fresh hit for the same content writes nothing.
    public var validator: String?
    /// The last pass that fetched the page.
    public var pass: Int
    /// The pass that last wrote its items.
    public var contentPass: Int
    public var fetchedAt: Double
    /// The collection size the page stated (items, else pages), for offset and page-number styles.
    public var statedTotal: Int?
    /// How many items the mirror holds for the page now, when read with
    /// ``ItemDatabase/pages(of:)``. Fewer than ``itemCount`` when a later write moved some to
    /// another page (a pass that stopped after the server shifted its items): the stored
    /// content is then not the page's, whatever its validator says.
    public var presentCount: Int?

    /// Whether a total the page stated is what said the next page exists.
    public var totalSaysMore: Bool { nextURL != nil && statedTotal != nil }

    /// Whether every item written for the page is still on it.
    public var isIntact: Bool { presentCount.map { $0 == itemCount } ?? true }
}

/// A collection with the figures `fresh collections` shows.
public struct CollectionSummary: Sendable, Equatable {
    public var collection: CollectionRecord
    public var itemCount: Int
    public var pageCount: Int
    /// Bytes of item JSON stored.
    public var bytes: Int
}

/// What writing one page changed.
public struct PageWrite: Sendable, Equatable {
    /// Items the collection did not have.
    public var created = 0
    /// Items whose JSON changed.
    public var changed = 0

    public init(created: Int = 0, changed: Int = 0) {
        self.created = created
        self.changed = changed
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
