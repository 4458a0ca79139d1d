import Foundation
import JSON

/// The pass protocol a sync writes with, under the guarantees ``MirrorStore`` lists; the rules
/// both stores share are in `PassRules.swift`.
public protocol PassWriting: AnyObject, Sendable {
    /// Takes the collection's sync lock (its identity: see `CollectionIdentity`), waiting while
    /// another process holds it; `onWait` hears once, with the holder when known, if it must wait.
    func lock(collection identity: String, onWait: @escaping @Sendable (String?) -> Void) async throws -> any CollectionLock
    /// Resumes the collection's unfinished pass, or starts a new one (`restart`, or none unfinished).
    func startPass(of id: Int64, restart: Bool, now: Date) async throws -> PassPosition
    /// The stored page records of a collection whose indexes are in `range`, by index.
    func pages(of id: Int64, in range: Range<Int>) async throws -> [Int: PageRecord]
    /// Writes pages of one pass, in order, each in full or not at all (``PageWriteRule``), and returns
    /// what each changed. A page whose ``PageContent/items`` are `nil` is current: only its pass is recorded.
    /// - Throws: ``DuplicateKey`` when a page lists a key another page of this pass already
    ///   listed; the pages before it are written, that page and the rest are not.
    func writePages(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) async throws -> [PageWrite]
    /// Starts (and returns) a new pass to read a resumed pass's pages again from the first, before it may
    /// count as complete, without giving the last one up (``joinPass(_:of:pagesFrom:)`` adds the rest).
    func revisitPass(of id: Int64, now: Date) async throws -> Int
    /// Makes the pages from `index` on that the pass before `pass` read part of `pass` (the
    /// pages a resumed pass read after its stop, when its revisit came back to them).
    func joinPass(_ pass: Int, of id: Int64, pagesFrom index: Int) async throws
    /// Writes the items a catch-up found at the front of a listing that moved during pass `pass`:
    /// on the first page, in order, from `firstPosition` (``ItemPosition/caughtUpBase``). An item a page
    /// of this pass lists already stays (a ``PageWrite/repeated``); one held elsewhere moves here.
    func writeCaughtUp(_ items: [(key: ItemKey, json: Data)], of id: Int64, pass: Int, firstPosition: Int, now: Date) async throws -> PageWrite
    /// Merges the items of an incremental run: an item the collection holds is updated where it
    /// stands, a new one is added after the last. Nothing is removed or set aside.
    func mergeItems(_ items: [(key: ItemKey, json: Data)], of id: Int64, now: Date) async throws -> PageWrite
    /// The items ``finishPass(_:of:lastPage:removingUnlisted:recording:now:)`` would delete now:
    /// those set aside, past `lastPage`, or on a page pass `pass` did not read (the pass read a
    /// page at each index up to `lastPage`). Index ranges and the pass's stale pages: no walk over
    /// every item.
    func unlistedItems(after pass: Int, of id: Int64, lastPage: Int) async throws -> UnlistedItems
    /// How many items are set aside: a page of the pass under way no longer lists them (hidden
    /// from the items shown until a page lists them again, the pass's end removes them, or they
    /// are put back).
    func setAsideCount(of id: Int64) async throws -> Int
    /// Puts the set-aside items back, after the items of the last page the pass read, in their
    /// order (``PageWriteRule/putBack``), for a pass that stopped before its end: shown until a
    /// pass reads where the server lists them now. The next sync starts a pass over instead of
    /// resuming this one (``PageWriteRule/passNotResumed``). Returns how many came back.
    func putBackSetAside(of id: Int64) async throws -> Int
    /// Gives up the current pass without deleting anything: the next sync starts a new one.
    func abandonPass(of id: Int64) async throws
    /// Ends a pass whose last page is `lastPage`: deletes the pages it did not read and those
    /// beyond its last, and the items no page of the pass lists (when `removingUnlisted` is false,
    /// only the pages, and the set-aside items are put back after its last page), and records the
    /// pass's kind (``CollectionRecord/lastPassKind``) in the same transaction: a kill between two
    /// writes could leave a partial pass recorded as the kind before it. Returns how many items
    /// were deleted.
    func finishPass(_ pass: Int, of id: Int64, lastPage: Int, removingUnlisted: Bool, recording kind: PassKind, now: Date) async throws -> Int
}

extension PassWriting {
    /// Every stored page record of a collection, by index.
    public func pages(of id: Int64) async throws -> [Int: PageRecord] {
        try await pages(of: id, in: 0..<Int.max)
    }

    /// Runs `body` holding the collection's sync lock, released however `body` ends.
    public func withLock<Value>(
        collection identity: String, onWait: @escaping @Sendable (String?) -> Void, _ body: () async throws -> Value
    ) async throws -> Value {
        let lock = try await lock(collection: identity, onWait: onWait)
        do {
            let value = try await body()
            await lock.release()
            return value
        } catch {
            await lock.release()
            throw error
        }
    }
}
