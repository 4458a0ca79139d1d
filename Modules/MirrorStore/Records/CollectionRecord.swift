import HTTPTypes
import Pagination

/// One mirrored collection: where it comes from, how its pages are read, where its pass stands.
public struct CollectionRecord: Sendable, Equatable {
    public var id: Int64
    /// The name commands use (`fresh items NAME`, `fresh-reader --collection NAME`).
    public var name: String
    /// The first page's URL as the user gave it (page size included, credentials removed).
    public var url: String
    /// How its pages are read (style, item path, key, size parameter); `nil` until the first
    /// page has been read, or when what is stored cannot be read (the next sync detects it again).
    public var plan: PaginationPlan?
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
    /// The header fields its syncs send again (`-H` given with its URL); a secret is sent for its run only.
    public var headerFields: HTTPFields
    /// `--since PARAM=MEMBER` as typed, when its syncs are incremental; `nil` for whole passes.
    public var since: String?
    /// What the last run that ended did; `nil` before the first.
    public var lastPassKind: PassKind?
    /// The value an incremental run that has not ended started from (`--since`'s parameter): the
    /// next run starts from it again, since what the stopped run merged raised the largest stored
    /// value past the pages it never read. `nil` once an incremental run ends whole (a whole
    /// pass may have read its pages from the cache, and confirms nothing).
    public var incrementalFrom: String?

    public init(id: Int64, name: String, url: String, plan: PaginationPlan?, createdAt: Double, pass: Int, passComplete: Bool,
                passStartedAt: Double?, lastCompleteAt: Double?, lastSyncAt: Double?, lastError: String?, changeSequence: Int,
                shownSequence: Int?, headerFields: HTTPFields = [:], since: String? = nil, lastPassKind: PassKind? = nil,
                incrementalFrom: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.plan = plan
        self.createdAt = createdAt
        self.pass = pass
        self.passComplete = passComplete
        self.passStartedAt = passStartedAt
        self.lastCompleteAt = lastCompleteAt
        self.lastSyncAt = lastSyncAt
        self.lastError = lastError
        self.changeSequence = changeSequence
        self.shownSequence = shownSequence
        self.headerFields = headerFields
        self.since = since
        self.lastPassKind = lastPassKind
        self.incrementalFrom = incrementalFrom
    }
}

/// What a run over a collection did.
public enum PassKind: String, Sendable {
    /// A whole pass, which removes what is gone.
    case full
    /// What changed merged in (`--since`), nothing removed.
    case incremental
    /// A whole pass whose stated total fell while it read: items may have slid back past the
    /// pages read, so the next sync is a whole pass again, not an incremental one.
    case partial
}

/// A collection with the figures `fresh collections` shows.
public struct CollectionSummary: Sendable, Equatable {
    public var collection: CollectionRecord
    public var itemCount: Int
    public var pageCount: Int
    /// Bytes of item JSON stored.
    public var bytes: Int

    public init(collection: CollectionRecord, itemCount: Int, pageCount: Int, bytes: Int) {
        self.collection = collection
        self.itemCount = itemCount
        self.pageCount = pageCount
        self.bytes = bytes
    }
}
