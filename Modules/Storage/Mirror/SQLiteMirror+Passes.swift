import Foundation
import GRDB
import JSON
import MirrorStore
import StorageErrors

// MirrorStore, passes: what each call does is said on the protocol.
extension SQLiteMirror {
    public func startPass(of collectionID: Int64, restart: Bool, now: Date = Date()) throws -> PassPosition {
        try write { db in
            guard let collection = try CollectionRecord.fetchOne(db, sql: "SELECT * FROM collection WHERE id = ?", arguments: [collectionID]) else {
                throw StorageError.failed("collection \(collectionID) no longer exists")
            }
            if collection.passMayResume(restart: restart) {
                var resuming = PassPosition.Resuming(pass: collection.pass)
                let pages = try Row.fetchCursor(db, sql: """
                    SELECT pageIndex, url, nextURL FROM page WHERE collectionID = ? AND pass = ? ORDER BY pageIndex
                    """, arguments: [collectionID, collection.pass])
                while let page = try pages.next() { resuming.add(index: page[0], url: page[1], nextURL: page[2]) }
                if let position = resuming.position { return position }
            }
            let pass = collection.pass + 1
            try db.execute(sql: "UPDATE collection SET pass = ?, passComplete = 0, passStartedAt = ? WHERE id = ?",
                           arguments: [pass, now.timeIntervalSince1970, collectionID])
            return .starting(pass)
        }
    }

    public func pages(of collectionID: Int64, in range: Range<Int>) throws -> [Int: PageRecord] {
        try read { db in
            let records = try PageRecord.fetchAll(db, sql: """
                SELECT \(PageRecord.columns) FROM page p WHERE p.collectionID = ? AND p.pageIndex >= ? AND p.pageIndex < ?
                """, arguments: [collectionID, range.lowerBound, range.upperBound])
            return Dictionary(records.map { ($0.pageIndex, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    public func pageURLs(onlyIn collectionID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT DISTINCT url FROM page WHERE collectionID = ?1
                    AND url NOT IN (SELECT url FROM page WHERE collectionID != ?1)
                """, arguments: [collectionID])
        }
    }

    public func writePages(_ pages: [PageContent], of collectionID: Int64, pass: Int, now: Date) async throws -> [PageWrite] {
        try await onWriterThread { [self] in try writePagesNow(pages, of: collectionID, pass: pass, now: now) }
    }

    /// ``writePages(_:of:pass:now:)`` on the calling thread: the pages in one transaction.
    func writePagesNow(_ pages: [PageContent], of collectionID: Int64, pass: Int, now: Date = Date()) throws -> [PageWrite] {
        do {
            let written = try write { db in
                try pages.map { page in
                    // A batch holds its core for milliseconds, and the scheduler does not preempt it
                    // at once for the thread that sends the next request (or a local server answering
                    // it): yield between pages, free when no thread waits.
                    defer { sched_yield() }
                    return try write(page, of: collectionID, pass: pass, now: now, db: db)
                }
            }
            checkpointer.committed(bytes: pages.reduce(0) { total, page in total + (page.items?.reduce(0) { $0 + $1.json.count } ?? 0) })
            return written
        } catch let refused as DuplicateKey {
            let before = refused.pages(before: pages)
            throw refused.with(written: before.isEmpty ? [] : try writePagesNow(before, of: collectionID, pass: pass, now: now))
        }
    }

    private func write(_ page: PageContent, of collectionID: Int64, pass: Int, now: Date, db: Database) throws -> PageWrite {
        guard let items = page.items else {
            try db.cachedStatement(sql: "UPDATE page SET pass = ?, fetchedAt = ? WHERE collectionID = ? AND pageIndex = ?")
                .execute(arguments: [pass, now.timeIntervalSince1970, collectionID, page.index])
            return PageWrite()
        }
        let written = try PageWriter.write(page, items: items, of: collectionID, pass: pass, now: now, db: db)
        try Self.keepEnvelope(of: page, of: collectionID, db: db)
        return written
    }

    public func writeCaughtUp(_ items: [(key: ItemKey, json: Data)], of collectionID: Int64, pass: Int, firstPosition: Int,
                              now: Date) async throws -> PageWrite {
        return try await onWriterThread { [self] in
            try write { db in try PageWriter.writeCaughtUp(items, of: collectionID, pass: pass, firstPosition: firstPosition, db: db) }
        }
    }

    public func mergeItems(_ items: [(key: ItemKey, json: Data)], of collectionID: Int64, now: Date) async throws -> PageWrite {
        return try await onWriterThread { [self] in try write { db in try PageWriter.merge(items, of: collectionID, db: db) } }
    }

    public func revisitPass(of collectionID: Int64, now: Date = Date()) throws -> Int {
        try write { db in
            try Int.fetchOne(db, sql: """
                UPDATE collection SET pass = pass + 1, passComplete = 0, passStartedAt = ? WHERE id = ? RETURNING pass
                """, arguments: [now.timeIntervalSince1970, collectionID]) ?? 0
        }
    }

    public func joinPass(_ pass: Int, of collectionID: Int64, pagesFrom index: Int) throws {
        try execute("UPDATE page SET pass = ? WHERE collectionID = ? AND pageIndex >= ? AND pass = ?",
                    [pass, collectionID, index, pass - 1])
    }

    public func unlistedItems(after pass: Int, of collectionID: Int64, lastPage: Int) throws -> UnlistedItems {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*), coalesce(sum(id), 0) FROM (
                    SELECT id FROM item WHERE collectionID = ?1 AND pageIndex < 0
                    UNION ALL SELECT id FROM item WHERE collectionID = ?1 AND pageIndex > ?2
                    UNION ALL SELECT i.id FROM page p JOIN item i ON i.collectionID = p.collectionID AND i.pageIndex = p.pageIndex
                        WHERE p.collectionID = ?1 AND p.pageIndex <= ?2 AND p.pass != ?3)
                """, arguments: [collectionID, lastPage, pass])
            return UnlistedItems(count: row?[0] ?? 0, rowSum: row?[1] ?? 0)
        }
    }

    public func setAsideCount(of collectionID: Int64) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex < 0", arguments: [collectionID]) ?? 0
        }
    }

    public func putBackSetAside(of collectionID: Int64) throws -> Int {
        try write { db in try PassEnd.putBack(of: collectionID, passStopped: true, db: db) }
    }

    public func abandonPass(of collectionID: Int64) throws {
        try execute("UPDATE collection SET passComplete = 1 WHERE id = ?", [collectionID])
    }

    public func finishPass(
        _ pass: Int, of collectionID: Int64, lastPage: Int, removingUnlisted: Bool = true, recording kind: PassKind = .full, now: Date = Date()
    ) throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM page WHERE collectionID = ? AND (pass != ? OR pageIndex > ?)",
                           arguments: [collectionID, pass, lastPage])
            let pagesDropped = db.changesCount > 0
            var removed = 0
            if removingUnlisted {
                removed = try pagesDropped ? PassEnd.deleteUnlisted(of: collectionID, db: db)
                    : PassEnd.deleteSetAsideAndPastTheEnd(of: collectionID, db: db)
            } else {
                _ = try PassEnd.putBack(of: collectionID, passStopped: false, db: db)
            }
            try db.execute(sql: "UPDATE collection SET passComplete = 1, lastCompleteAt = ?, lastPassKind = ? WHERE id = ? AND pass = ?",
                           arguments: [now.timeIntervalSince1970, kind.rawValue, collectionID, pass])
            // A warm pass that removed nothing leaves the kept count as it was: no count of 10,000,000 items.
            if try removed > 0 || PassEnd.keptCount(of: collectionID, db: db) == nil {
                try PassEnd.keepCount(of: collectionID, db: db)
            }
            return removed
        }
    }
}

/// The deletions that end a complete pass. A rewritten page sets its leftovers aside (below
/// zero) at once, so what remains to delete is set aside, or on pages the pass did not reach. A
/// pass that ends without removing, or stops, puts what it set aside back instead.
enum PassEnd {
    private static let lastPageRead = MirrorSQL.underSQLiteNames(PageWriteRule.lastPageRead)
    private static let putBackItems = MirrorSQL.underSQLiteNames(PageWriteRule.putBack)
    private static let passNotResumed = MirrorSQL.underSQLiteNames(PageWriteRule.passNotResumed)

    /// Puts every set-aside item of the collection back, after the last page its pass read
    /// (``PageWriteRule/putBack``); for a pass that stopped, the next sync then starts over
    /// (``PageWriteRule/passNotResumed``). Returns how many came back.
    static func putBack(of collectionID: Int64, passStopped: Bool, db: Database) throws -> Int {
        let collection: StatementArguments = ["collection": collectionID]
        guard let page = try Int.fetchOne(db, sql: lastPageRead, arguments: collection) else { return 0 }
        let arguments: StatementArguments = ["collection": collectionID, "page": page]
        try db.execute(sql: putBackItems, arguments: arguments)
        let count = db.changesCount
        guard count > 0 else { return 0 }
        try PageWriter.noLongerAsWritten(page: page, of: collectionID, db: db)
        if passStopped { try db.execute(sql: passNotResumed, arguments: collection) }
        _ = try PageWriter.nextChangeNumber(of: collectionID, db: db)
        return count
    }

    /// The collection's items, counted through the order index.
    static func countItems(of collectionID: Int64, db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ? AND pageIndex >= 0", arguments: [collectionID]) ?? 0
    }

    /// The count ``keepCount(of:db:)`` kept, `nil` when none is kept or a page was written since.
    static func keptCount(of collectionID: Int64, db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: """
            SELECT k.count FROM itemCount k JOIN collection c ON c.id = k.collectionID
            WHERE k.collectionID = ? AND k.changeSequence = c.changeSequence
            """, arguments: [collectionID])
    }

    /// Keeps the count after the pass's deletions, with the change number it holds for. Every
    /// other change to the number of items shown writes a page, which takes a change number;
    /// a pass's end writes the count again; deleting the collection drops it. So while the
    /// change number is the same, so is the count (a sync that starts a pass and fails changes
    /// neither).
    static func keepCount(of collectionID: Int64, db: Database) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO itemCount (collectionID, count, changeSequence)
            SELECT id, ?, changeSequence FROM collection WHERE id = ?
            """, arguments: [try countItems(of: collectionID, db: db), collectionID])
    }

    /// When no page was dropped: the set-aside items and any past the last page, two index
    /// ranges rather than a walk over every item.
    static func deleteSetAsideAndPastTheEnd(of collectionID: Int64, db: Database) throws -> Int {
        let last = try Int.fetchOne(db, sql: "SELECT max(pageIndex) FROM page WHERE collectionID = ?", arguments: [collectionID]) ?? -1
        try db.execute(sql: "DELETE FROM item WHERE collectionID = ? AND pageIndex < 0", arguments: [collectionID])
        let setAside = db.changesCount
        try db.execute(sql: "DELETE FROM item WHERE collectionID = ? AND pageIndex > ?", arguments: [collectionID, last])
        return setAside + db.changesCount
    }

    /// When pages were dropped: every item on a page that no longer exists.
    static func deleteUnlisted(of collectionID: Int64, db: Database) throws -> Int {
        try db.execute(sql: """
            DELETE FROM item WHERE collectionID = ?1 AND pageIndex NOT IN (SELECT pageIndex FROM page WHERE collectionID = ?1)
            """, arguments: [collectionID])
        return db.changesCount
    }
}
