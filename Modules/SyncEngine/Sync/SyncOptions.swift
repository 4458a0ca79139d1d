import Foundation
import HTTPCache
import HTTPTypes
import MirrorStore
import Pacing
import Pagination

/// What `fresh sync` was asked to do.
public struct SyncOptions: Sendable {
    /// The collection's first page, as the user gave it.
    public var url: URL
    /// The collection's name (default: from the URL, see ``CollectionIdentity/defaultName(for:)``).
    public var name: String?
    /// What the user fixed (`--paginate`, `--items`, `--key`); one that changes the plan starts a new pass.
    public var overrides = PaginationDetector.Overrides()
    /// The page size to ask for (`--limit`), set on the plan's size parameter.
    public var limit: Int?
    /// Extra request header fields (`-H`); sent to the collection's origin only.
    public var headerFields = HTTPFields()
    /// The fields of ``headerFields`` the collection keeps for its later syncs by name (those
    /// that carry no secret); `nil` leaves what it keeps as it is.
    public var rememberedHeaders: HTTPFields?
    public var policy: CachePolicy = .useProtocolCachePolicy
    /// Per-request time limit.
    public var timeout: Duration?
    /// Which certificates the requests trust (`--cacert`, `--capath`, `-k`, a source's `cacert`, `insecure`).
    public var trust = TLSTrust()
    public var retry = RetryPolicy()
    /// Requests in flight at once to the collection's origin (`--parallel`); `nil`: the gate's default.
    public var parallel: Int?
    /// The largest page body accepted.
    public var maximumPageSize = 64 * 1024 * 1024
    /// Start a new pass even if the last one did not finish (`--restart`).
    public var restart = false
    /// Incremental syncs (`--since PARAM=MEMBER`, see ``SinceSpec``); `nil` for whole passes.
    public var since: SinceSpec?
    /// A whole pass that removes what is gone, even with ``since`` (`--full`).
    public var full = false
    /// How many empty pages in a row may still point onward before the sync stops.
    public var maximumEmptyPages = 5
    /// Stop after this many pages, to resume the pass later (a reader's scroll); `nil`: the whole collection.
    public var maximumPages: Int?
    /// Stored pages, by index, revalidated at their stored URL before the walk (what a reader's
    /// refresh has on screen): written only if changed, and then found current by the walk.
    public var firstPages: [Int] = []

    public init(url: URL) { self.url = url }

    /// A sync of a collection synced before, by name, with the header fields it keeps; `nil`: its URL is invalid.
    public init?(resyncing collection: CollectionRecord) {
        guard let url = URL(string: collection.url) else { return nil }
        self.init(url: url)
        name = collection.name
        headerFields = collection.headerFields
        since = collection.since.flatMap(SinceSpec.init(parsing:))
    }
}
