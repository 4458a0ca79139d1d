import Foundation
import HTTPTypes
import Pagination

/// What a sync or a command records about a collection, beside its pages.
public protocol CollectionEditing: AnyObject, Sendable {
    /// Creates a collection for the first page at `url`, called `name` (or `name-2`, … when taken).
    func createCollection(preferredName name: String, url: String, now: Date) async throws -> CollectionRecord
    /// Deletes a collection with its pages and items; returns how many items it held.
    @discardableResult
    func deleteCollection(_ id: Int64) async throws -> Int
    /// Gives a collection another name (a source adopting it).
    /// - Throws: `StorageError` when another collection has the name.
    func renameCollection(_ id: Int64, to name: String) async throws
    /// The URLs of a collection's pages no other collection shares (what a removal may forget from the cache).
    func pageURLs(onlyIn id: Int64) async throws -> [String]

    /// Stores how the collection's pages are read and its first page's URL.
    func setPlan(_ plan: PaginationPlan, url: String, of id: Int64) async throws
    /// Forgets a collection's plan and pages and starts a new pass; its items stay until that pass ends.
    func resetPlan(of id: Int64) async throws
    /// Keeps the header fields the collection's later syncs send (see ``CollectionRecord/headerFields``).
    func rememberHeaders(_ fields: HTTPFields, of id: Int64) async throws
    /// Keeps the collection's `--since PARAM=MEMBER` for its later syncs by name (`nil`: whole
    /// passes); forgets where an unfinished incremental run of another one started.
    func rememberSince(_ since: String?, of id: Int64) async throws
    /// Records the value an incremental run starts from, before it writes (``CollectionRecord/incrementalFrom``).
    func recordIncrementalStart(_ value: String, of id: Int64) async throws
    /// Records how the last sync of a collection ended (`nil`: it succeeded or stopped cleanly).
    func recordSyncEnd(of id: Int64, error: String?, at date: Date) async throws
    /// Records the kind of the run that just ended (``CollectionRecord/lastPassKind``); an
    /// incremental run that ended forgets where it started. A whole pass does not: its pages may
    /// have been fresh hits, which read nothing from the server.
    func recordPassKind(_ kind: PassKind, of id: Int64) async throws
}
