/// What a mirror promises and a consistency check (``MirrorMaintenance/problems()``, `fresh
/// check`) found broken, in the same words from either store, found by the same SQL: like
/// ``PageWriteRule``, the queries name the PostgreSQL store's columns, and the SQLite store runs
/// them under its own names.
public enum BrokenPromise {
    /// Rows of (collection name, count): items before a complete collection's last page whose page
    /// does not exist. Items are grouped by page first, so each page is looked up once.
    public static let itemsOnNoPageQuery = """
        SELECT c.name, CAST(sum(on_page.items) AS BIGINT) FROM (
            SELECT collection_id, page_index, count(*) AS items FROM item WHERE page_index >= 0 GROUP BY collection_id, page_index
        ) on_page JOIN collection c ON c.id = on_page.collection_id
        WHERE c.pass_complete AND NOT EXISTS (
            SELECT 1 FROM page p WHERE p.collection_id = on_page.collection_id AND p.page_index = on_page.page_index)
        AND on_page.page_index < (SELECT max(p.page_index) FROM page p WHERE p.collection_id = on_page.collection_id)
        GROUP BY c.name ORDER BY c.name
        """

    /// Rows of (collection name, page index), ten at most: pages of a complete collection's last
    /// pass, written with their content in it, that hold fewer items than they listed.
    public static let shortPagesQuery = """
        SELECT c.name, p.page_index FROM page p JOIN collection c ON c.id = p.collection_id
        WHERE c.pass_complete AND p.pass = c.pass AND p.content_pass = p.pass AND p.item_count > (
            SELECT count(*) FROM item i WHERE i.collection_id = p.collection_id AND i.page_index = p.page_index)
        ORDER BY c.name, p.page_index LIMIT 10
        """

    /// Rows of (collection name, kept count, stored count) where a count kept for the collection's
    /// current change number is not the count of its items.
    public static let keptCountQuery = """
        SELECT name, kept, stored FROM (
            SELECT c.name, k.count AS kept,
                (SELECT count(*) FROM item i WHERE i.collection_id = c.id AND i.page_index >= 0) AS stored
            FROM item_count k JOIN collection c ON c.id = k.collection_id AND k.change_sequence = c.change_sequence) counted
        WHERE kept != stored ORDER BY name
        """

    /// In a collection whose last pass was complete, every current item before its last page is
    /// on a page that exists. (Items past the last page are kept by a pass that ended unsettled,
    /// the listing having changed under it; a recovered file has items and no pages until the
    /// next sync.)
    public static func itemsOnNoPage(collection: String, count: Int) -> String {
        "collection \(collection): \(count) items on no page"
    }

    /// In a collection whose last pass was complete, every page that pass wrote holds the items
    /// it listed (`pageIndex` counts from 0).
    public static func shortPage(collection: String, pageIndex: Int) -> String {
        "collection \(collection): page \(pageIndex + 1) holds fewer items than it listed"
    }

    /// The item count a pass's end kept is, while it holds (no page written, no item removed
    /// since), the count of the items stored.
    public static func keptCount(collection: String, kept: Int, stored: Int) -> String {
        "collection \(collection): its item count kept at the last pass's end is \(kept), but \(stored) items are stored"
    }
}
