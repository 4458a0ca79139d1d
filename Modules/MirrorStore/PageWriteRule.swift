/// The page-write rule, in SQL, written once for both stores. A changed page is written in
/// four steps, inside the caller's transaction:
///
/// 1. the collection's next change number (``nextChangeNumber``);
/// 2. the page's items upserted by key (``upsertItems(_:moving:contentColumns:)``): an item whose
///    content did not change keeps its change number, and an item that another page of this
///    pass listed already is not moved: its step writes no row, and the store calls it a repeat;
/// 3. the items the page no longer lists set aside until the pass ends (``setAside``);
/// 4. the page's record (``recordPage``).
///
/// A later page of the pass that lists a set-aside item takes it; the pass's end removes the
/// rest. A pass that stops before its end, or ends without removing, puts them back, after the
/// last page it read (``putBack``): nothing stays hidden while no pass has found it gone.
///
/// A page record's validator vouches for exactly the items its write left on the page. Whatever
/// else puts an item on a page or takes one off it drops that validator (``pageNoLongerAsWritten``),
/// so the next pass reads the page in full instead of taking a 304 for content the mirror no
/// longer holds as sent: no pass has to count a page's items to know it.
///
/// The text names the PostgreSQL store's columns and takes `:name` parameters. The SQLite store
/// runs the statements one at a time under its own column names; the PostgreSQL store builds
/// its `write_page` function from them, so that a batch of pages costs one round trip. Each
/// store supplies only its storage: where the items come from, and how a repeat is reported.
public enum PageWriteRule {
    /// Step 1, returning the number: the items this write creates or changes carry it.
    public static let nextChangeNumber = """
        UPDATE collection SET change_sequence = change_sequence + 1 WHERE id = :collection RETURNING change_sequence
        """

    /// Which stored items an upsert may take over, and so move.
    public enum Moving: Sendable, CaseIterable {
        /// A page of a pass: an item already on this page, or one no page of this pass has listed.
        case page
        /// The items a catch-up found at the front of the listing: one no page of this pass lists.
        case caughtUp
        /// An incremental run's items: every stored one is updated where it stands, never moved.
        case never
    }

    /// Step 2. `rows` is a `VALUES` or a `SELECT` of `collection_id, key, page_index, position`,
    /// the `contentColumns`, `pass, created_sequence, changed_sequence`, in that order.
    public static func upsertItems(_ rows: String, moving: Moving, contentColumns: [String]) -> String {
        let sameContent = contentColumns.map { "item.\($0) IS NOT DISTINCT FROM excluded.\($0)" }.joined(separator: " AND ")
        let content = contentColumns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let move = moving == .never ? "" : "page_index = excluded.page_index, position = excluded.position, pass = excluded.pass, "
        let listedThisPass = """
            EXISTS (SELECT 1 FROM page p WHERE p.collection_id = item.collection_id AND p.page_index = item.page_index
                AND p.pass = excluded.pass AND p.content_pass = item.pass)
            """
        let condition = switch moving {
        case .page: "WHERE item.page_index = excluded.page_index OR NOT \(listedThisPass)"
        case .caughtUp: "WHERE NOT \(listedThisPass)"
        case .never: ""
        }
        return """
            \(insertItems(rows, contentColumns: contentColumns))
            ON CONFLICT (collection_id, key) DO UPDATE SET \(move)
                changed_sequence = CASE WHEN \(sameContent) THEN item.changed_sequence ELSE excluded.changed_sequence END, \(content)
            \(condition)
            """
    }

    /// Step 2's insert, without what it does to a key the collection holds.
    public static func insertItems(_ rows: String, contentColumns: [String]) -> String {
        """
        INSERT INTO item (collection_id, key, page_index, position, \(contentColumns.joined(separator: ", ")), pass,
            created_sequence, changed_sequence)
        \(rows)
        """
    }

    /// Step 3. A set-aside item's page index is below zero, hidden from every reading, and keeps
    /// the page it was on, for the order ``putBack`` keeps: -2 for page 0, -3 for page 1. (-1 is
    /// what mirrors written before that hold: such an item stays hidden until a pass takes it or ends.)
    public static let setAside = """
        UPDATE item SET page_index = -2 - page_index WHERE collection_id = :collection AND page_index = :page AND pass != :pass
        """

    /// Putting back, first: the last page the pass read (the highest index among the pages it
    /// recorded), after whose items the set-aside ones go (``putBack``).
    public static let lastPageRead = """
        SELECT max(page_index) FROM page WHERE collection_id = :collection AND pass = (SELECT pass FROM collection WHERE id = :collection)
        """

    /// Putting back: the set-aside items go after the items of page `:page`, the last the pass
    /// read (``lastPageRead``), in the order they had: by the page each was set aside from, then
    /// by its place there. Most were pushed on by entries added ahead of them, towards the pages
    /// the pass did not reach; where the server lists them now, the next pass reads, and until
    /// then they are shown there. That page then no longer holds what its write left, and loses
    /// its validator (``pageNoLongerAsWritten``); the store takes a change number
    /// (``nextChangeNumber``), as the items shown changed.
    public static let putBack = """
        UPDATE item SET page_index = :page, position = home.position
        FROM (
            SELECT s.id, (SELECT coalesce(max(o.position) + 1, 0) FROM item o WHERE o.collection_id = :collection AND o.page_index = :page)
                + ROW_NUMBER() OVER (ORDER BY s.page_index DESC, s.position, s.id) - 1 AS position
            FROM item s WHERE s.collection_id = :collection AND s.page_index <= -2
        ) AS home
        WHERE item.id = home.id
        """

    /// For a pass that stopped and put items back: the pages it read count as not read by it
    /// (`pass` one lower), so the next sync starts a pass over rather than resume this one, whose
    /// pages would hold items it never listed, counted as listed: its end would then not look
    /// again before removing what no page lists.
    public static let passNotResumed = """
        UPDATE page SET pass = pass - 1 WHERE collection_id = :collection AND pass = (SELECT pass FROM collection WHERE id = :collection)
        """

    /// Step 4. `:item_count` is what the page wrote, and `:validator` is dropped when the page
    /// kept repeats (what the mirror holds is then not the page the server sent).
    public static let recordPage = """
        INSERT INTO page \(pageColumns)
        VALUES (:collection, :page, :url, :next_url, :item_count, :validator, :pass, :pass, :now, :stated_total)
        \(pageConflict)
        """

    /// For a page that no longer holds what its write left on it:
    /// - a page an item left, taken by step 2 for another page (a page of an earlier pass, or a
    ///   catch-up's move), when ``itemLeftPage`` holds of the item's old and new page index (a
    ///   move below zero, set aside, is the page's own rewrite, which records the page anew; a
    ///   move back, ``putBack``, drops the validator itself);
    /// - a page items were added to by something other than its own write: a catch-up's, on the
    ///   first page, and an incremental merge's, after the last item.
    public static let pageNoLongerAsWritten = """
        UPDATE page SET validator = NULL WHERE collection_id = :collection AND page_index = :page AND validator IS NOT NULL
        """

    /// Whether an item whose page index goes from `old` to `new` left a page (see ``pageNoLongerAsWritten``).
    public static func itemLeftPage(old: String, new: String) -> String {
        "\(old) >= 0 AND \(new) >= 0 AND \(new) != \(old)"
    }

    /// Once, for a mirror written before ``pageNoLongerAsWritten``: each page that does not hold
    /// the items it wrote, counted, loses its validator.
    public static let pagesNotHoldingWhatTheyWrote = """
        UPDATE page SET validator = NULL WHERE validator IS NOT NULL AND item_count != (
            SELECT count(*) FROM item i WHERE i.collection_id = page.collection_id AND i.page_index = page.page_index)
        """

    /// Step 4's columns, and what it does to a page recorded already: for a store that records
    /// several pages in one statement (PostgreSQL's bulk load).
    public static let pageColumns =
        "(collection_id, page_index, url, next_url, item_count, validator, pass, content_pass, fetched_at, stated_total)"
    public static let pageConflict = """
        ON CONFLICT (collection_id, page_index) DO UPDATE SET url = excluded.url, next_url = excluded.next_url,
            item_count = excluded.item_count, validator = excluded.validator, pass = excluded.pass,
            content_pass = excluded.content_pass, fetched_at = excluded.fetched_at, stated_total = excluded.stated_total
        """
}
