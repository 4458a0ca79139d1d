import Foundation
import JSON
import MirrorStore
import StorageErrors

// MirrorStore, passes: what each call does is said on the protocol.
extension PostgresMirror {
    public func startPass(of id: Int64, restart: Bool, now: Date) async throws -> PassPosition {
        stopBulkLoad(of: id)
        return try await write { transaction in
            guard let row = try await transaction.query("""
                SELECT \(unescaped: CollectionRecord.columns) FROM collection WHERE id = \(id) FOR UPDATE
                """).first else {
                throw StorageError.failed("collection \(id) no longer exists")
            }
            let collection = try CollectionRecord(row: row)
            if collection.passMayResume(restart: restart) {
                var resuming = PassPosition.Resuming(pass: collection.pass)
                try await transaction.forEachRow("""
                    SELECT page_index, url, next_url FROM page WHERE collection_id = \(id) AND pass = \(collection.pass) ORDER BY page_index
                    """) { row in
                    let (index, url, nextURL) = try row.decode((Int, String, String?).self)
                    resuming.add(index: index, url: url, nextURL: nextURL)
                }
                if let position = resuming.position { return position }
            }
            let pass = collection.pass + 1
            try await transaction.query("""
                UPDATE collection SET pass = \(pass), pass_complete = false, pass_started_at = \(now.timeIntervalSince1970) WHERE id = \(id)
                """)
            let empty = try await transaction.query("SELECT NOT EXISTS (SELECT 1 FROM item WHERE collection_id = \(id))").first?.decode(Bool.self)
            noteStart(of: pass, of: id, empty: empty == true)
            return .starting(pass)
        }
    }

    public func pages(of id: Int64, in range: Range<Int>) async throws -> [Int: PageRecord] {
        let rows = try await connection.query("""
            SELECT p.page_index, p.url, p.next_url, p.item_count, p.validator, p.pass, p.content_pass, p.fetched_at, p.stated_total
            FROM page p WHERE p.collection_id = \(id) AND p.page_index >= \(range.lowerBound) AND p.page_index < \(range.upperBound)
            """)
        var pages: [Int: PageRecord] = [:]
        for row in rows {
            let (index, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt, statedTotal) = try row.decode(
                (Int, String, String?, Int, String?, Int, Int, Double, Int?).self)
            pages[index] = PageRecord(collectionID: id, pageIndex: index, url: url, nextURL: nextURL, itemCount: itemCount,
                                      validator: validator, pass: pass, contentPass: contentPass, fetchedAt: fetchedAt,
                                      statedTotal: statedTotal)
        }
        return pages
    }

    public func pageURLs(onlyIn id: Int64) async throws -> [String] {
        try await connection.query("""
            SELECT DISTINCT url FROM page WHERE collection_id = \(id)
                AND url NOT IN (SELECT url FROM page WHERE collection_id != \(id))
            """).map { try $0.decode(String.self) }
    }

    public func writePages(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) async throws -> [PageWrite] {
        if pages.allSatisfy({ $0.items == nil }) {
            // A warm sync's batch: every page current, so only their pass is recorded, by one
            // statement (atomic alone) instead of a transaction's three round trips.
            try await connection.query("""
                UPDATE page SET pass = \(pass), fetched_at = \(now.timeIntervalSince1970)
                WHERE collection_id = \(id) AND page_index = ANY (\(pages.map(\.index)))
                """)
            return pages.map { _ in PageWrite() }
        }
        if mayBulkLoad(pages, of: id, pass: pass), let written = try await bulkLoad(pages, of: id, pass: pass, now: now) {
            return written
        }
        do {
            return try await connection.transaction { transaction in
                let rows = try await transaction.query(writeStatement(pages, of: id, pass: pass, now: now))
                let written = try zip(rows, pages).map { row, page in try outcome(of: row, page: page) }
                let rewritten = pages.filter { $0.items != nil }
                if !rewritten.isEmpty { try await transaction.query(envelopeStatement(rewritten, of: id)) }
                return written
            }
        } catch let refused as DuplicateKey {
            let before = refused.pages(before: pages)
            throw refused.with(written: before.isEmpty ? [] : try await writePages(before, of: id, pass: pass, now: now))
        }
    }

    /// The batch as one `write_pages` call (see ``PostgresSchema``): the pages' records side by
    /// side, their items one after another; a current page (no items) has no item count.
    private func writeStatement(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) -> PostgresQuery {
        let items = pages.flatMap { $0.items ?? [] }
        let documents = items.map { ItemDocument($0.json) }
        return """
            SELECT created, changed, repeated, refused_key, refused_page FROM write_pages(\(id), \(pass), \(now.timeIntervalSince1970),
                \(pages.map(\.index)), \(pages.map(\.url)), \((pages.map(\.nextURL))),
                \((pages.map(\.validator))), \((pages.map(\.statedTotal))),
                \((pages.map { $0.items?.count })), \(pages.map(\.repeatsAllowed)), \(items.map(\.key.tagged)),
                \(documents.map(\.document)), \(documents.map(\.exactText)))
            """
    }

    /// Keeps the envelopes of the rewritten `pages` beside their records, and forgets the older
    /// envelope of one that has none.
    private func envelopeStatement(_ pages: [PageContent], of id: Int64) -> PostgresQuery {
        """
        WITH given AS (SELECT * FROM unnest(\(pages.map(\.index)), \((pages.map { $0.envelope?.storedText })))
                AS g(page_index, envelope)),
            \(unescaped: Self.keepingEnvelopes(of: id))
        SELECT 1
        """
    }

    /// The steps of a statement that keep the envelopes of a `given` list of pages (its columns
    /// `page_index` and `envelope`) and forget those of the pages given without one.
    static func keepingEnvelopes(of id: Int64) -> String {
        """
        forgotten AS (DELETE FROM page_envelope e USING given g
                WHERE e.collection_id = \(id) AND e.page_index = g.page_index AND g.envelope IS NULL),
            kept AS (INSERT INTO page_envelope (collection_id, page_index, envelope)
                SELECT \(id), page_index, envelope FROM given WHERE envelope IS NOT NULL
                ON CONFLICT (collection_id, page_index) DO UPDATE SET envelope = excluded.envelope)
        """
    }

    /// What `write_pages` said of one page: the items it created and changed, or the key another
    /// page of this pass listed (thrown as ``DuplicateKey``; the caller rolls back).
    private func outcome(of row: PostgresRow, page: PageContent) throws -> PageWrite {
        let (created, changed, repeated, refusedKey, refusedPage) = try row.decode((Int, Int, Int, Data?, Int?).self)
        if let refusedKey {
            let key = ItemKey(tagged: refusedKey)
            throw DuplicateKey(key: key.description, pageIndex: refusedPage ?? page.index, foundOnPage: page.index)
        }
        return PageWrite(created: created, changed: changed, repeated: repeated)
    }

    public func writeCaughtUp(_ items: [(key: ItemKey, json: Data)], of id: Int64, pass: Int, firstPosition: Int,
                              now: Date) async throws -> PageWrite {
        stopBulkLoad(of: id)
        let documents = items.map { ItemDocument($0.json) }
        return try await write { transaction in
            let row = try await transaction.query("""
                SELECT created, changed, repeated FROM write_caught_up(\(id), \(pass), \(firstPosition), \(items.map(\.key.tagged)),
                    \(documents.map(\.document)), \(documents.map(\.exactText)))
                """).first
            let (created, changed, repeated) = try row?.decode((Int, Int, Int).self) ?? (0, 0, 0)
            return PageWrite(created: created, changed: changed, repeated: repeated)
        }
    }

    public func mergeItems(_ items: [(key: ItemKey, json: Data)], of id: Int64, now: Date) async throws -> PageWrite {
        stopBulkLoad(of: id)
        let documents = items.map { ItemDocument($0.json) }
        return try await write { transaction in
            let row = try await transaction.query("""
                SELECT created, changed FROM merge_items(\(id), \(items.map(\.key.tagged)), \(documents.map(\.document)),
                    \(documents.map(\.exactText)))
                """).first
            let (created, changed) = try row?.decode((Int, Int).self) ?? (0, 0)
            return PageWrite(created: created, changed: changed)
        }
    }

    public func revisitPass(of id: Int64, now: Date) async throws -> Int {
        try await write { transaction in
            try await transaction.query("""
                UPDATE collection SET pass = pass + 1, pass_complete = false, pass_started_at = \(now.timeIntervalSince1970)
                WHERE id = \(id) RETURNING pass
                """).first?.decode(Int.self) ?? 0
        }
    }

    public func joinPass(_ pass: Int, of id: Int64, pagesFrom index: Int) async throws {
        try await write { transaction in
            try await transaction.query("""
                UPDATE page SET pass = \(pass) WHERE collection_id = \(id) AND page_index >= \(index) AND pass = \(pass - 1)
                """)
        }
    }

    public func unlistedItems(after pass: Int, of id: Int64, lastPage: Int) async throws -> UnlistedItems {
        let row = try await connection.query("""
            SELECT count(*), coalesce(sum(id), 0)::bigint FROM (
                SELECT id FROM item WHERE collection_id = \(id) AND page_index < 0
                UNION ALL SELECT id FROM item WHERE collection_id = \(id) AND page_index > \(lastPage)
                UNION ALL SELECT i.id FROM page p JOIN item i ON i.collection_id = p.collection_id AND i.page_index = p.page_index
                    WHERE p.collection_id = \(id) AND p.page_index <= \(lastPage) AND p.pass != \(pass)) unlisted
            """).first
        let (count, rowSum) = try row?.decode((Int, Int64).self) ?? (0, Int64(0))
        return UnlistedItems(count: count, rowSum: rowSum)
    }

    public func setAsideCount(of id: Int64) async throws -> Int {
        try await value("SELECT count(*) FROM item WHERE collection_id = \(id) AND page_index < 0") ?? 0
    }

    public func putBackSetAside(of id: Int64) async throws -> Int {
        stopBulkLoad(of: id)
        // Live readers hear of it only when something came back (a stopped pass always asks).
        return try await connection.transaction { transaction in
            let count = try await putBack(of: id, passStopped: true, transaction)
            if count > 0 { try await transaction.query("SELECT pg_notify('fresh_changes', \(String(id)))") }
            return count
        }
    }

    /// Puts the collection's set-aside items back after the last page its pass read
    /// (``PageWriteRule/putBack``), as the SQLite store's `PassEnd` does; for a pass that stopped,
    /// the next sync then starts over. Returns how many came back.
    private func putBack(of id: Int64, passStopped: Bool, _ transaction: ServerConnection.Transaction) async throws -> Int {
        guard let page = try await transaction.query(rule(PageWriteRule.lastPageRead, collection: id)).first?.decode(Int?.self) else {
            return 0
        }
        let count = try await transaction.query(rule("WITH back AS (\(PageWriteRule.putBack) RETURNING 1) SELECT count(*) FROM back",
                                                     collection: id, page: page)).first?.decode(Int.self) ?? 0
        guard count > 0 else { return 0 }
        try await transaction.query(rule(PageWriteRule.pageNoLongerAsWritten, collection: id, page: page))
        if passStopped { try await transaction.query(rule(PageWriteRule.passNotResumed, collection: id)) }
        try await transaction.query(rule(PageWriteRule.nextChangeNumber, collection: id))
        return count
    }

    /// A ``PageWriteRule`` statement about one collection (and a page of it): `:collection` bound
    /// to `id`, `:page` to `page`.
    private func rule(_ statement: String, collection id: Int64, page: Int? = nil) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(id)
        var sql = statement.replacing(":collection", with: "$1")
        if let page {
            binds.append(Int64(page))
            sql = sql.replacing(":page", with: "$2")
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    public func abandonPass(of id: Int64) async throws {
        stopBulkLoad(of: id)
        try await write { try await $0.query("UPDATE collection SET pass_complete = true WHERE id = \(id)") }
    }

    public func finishPass(_ pass: Int, of id: Int64, lastPage: Int, removingUnlisted: Bool, recording kind: PassKind, now: Date) async throws -> Int {
        stopBulkLoad(of: id)
        return try await write { transaction in
            let dropped = try await transaction.query("""
                WITH dropped AS (DELETE FROM page WHERE collection_id = \(id) AND (pass != \(pass) OR page_index > \(lastPage)) RETURNING 1)
                SELECT count(*) FROM dropped
                """).first?.decode(Int.self) ?? 0
            let removed = removingUnlisted ? try await deleteUnlisted(of: id, pagesDropped: dropped > 0, transaction) : 0
            if !removingUnlisted { _ = try await putBack(of: id, passStopped: false, transaction) }
            try await transaction.query("""
                UPDATE collection SET pass_complete = true, last_complete_at = \(now.timeIntervalSince1970), last_pass_kind = \(kind.rawValue)
                WHERE id = \(id) AND pass = \(pass)
                """)
            try await keepCount(of: id, unlessKeptAndNoneRemoved: removed == 0, transaction)
            return removed
        }
    }

    /// The items no page of the pass lists, as the SQLite store's `PassEnd` finds them. A rewritten
    /// page sets its leftovers aside (below zero) at once, so when no page was dropped, what remains is set
    /// aside or past the last page: two ranges of the order index, not a walk over every item.
    private func deleteUnlisted(of id: Int64, pagesDropped: Bool, _ transaction: ServerConnection.Transaction) async throws -> Int {
        // The last page's number is read first and given as a value: as a subquery in the
        // statement, the planner could not tell how few items lie past it and read every item
        // (32 ms at 100,000, at the end of every sync) instead of the order index's range.
        let lastPage = pagesDropped ? -1 : try await transaction.query(
            "SELECT coalesce(max(page_index), -1) FROM page WHERE collection_id = \(id)").first?.decode(Int.self) ?? -1
        let statement: PostgresQuery = pagesDropped ? """
            WITH gone AS (
                DELETE FROM item i WHERE i.collection_id = \(id) AND (i.page_index < 0 OR NOT EXISTS (
                    SELECT 1 FROM page p WHERE p.collection_id = i.collection_id AND p.page_index = i.page_index))
                RETURNING 1)
            SELECT count(*) FROM gone
            """ : """
            WITH set_aside AS (DELETE FROM item WHERE collection_id = \(id) AND page_index < 0 RETURNING 1),
                past_the_end AS (DELETE FROM item WHERE collection_id = \(id) AND page_index > \(lastPage) RETURNING 1)
            SELECT (SELECT count(*) FROM set_aside) + (SELECT count(*) FROM past_the_end)
            """
        return try await transaction.query(statement).first?.decode(Int.self) ?? 0
    }

    /// Keeps the collection's item count with the change number it holds for (`item_count`, as
    /// the SQLite store's `itemCount`): every other change to the items shown takes a change
    /// number, so while the number is the same, so is the count. A pass's end that removed
    /// nothing leaves a count still kept as it is: a warm sync counts no items.
    private func keepCount(of id: Int64, unlessKeptAndNoneRemoved noneRemoved: Bool, _ transaction: ServerConnection.Transaction) async throws {
        try await transaction.query("""
            INSERT INTO item_count (collection_id, count, change_sequence)
            SELECT c.id, (SELECT count(*) FROM item WHERE collection_id = c.id AND page_index >= 0), c.change_sequence FROM collection c
            WHERE c.id = \(id) AND NOT (\(noneRemoved) AND EXISTS (
                SELECT 1 FROM item_count k WHERE k.collection_id = c.id AND k.change_sequence = c.change_sequence))
            ON CONFLICT (collection_id) DO UPDATE SET count = excluded.count, change_sequence = excluded.change_sequence
            """)
    }
}
