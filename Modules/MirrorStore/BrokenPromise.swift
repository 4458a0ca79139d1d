/// What a mirror promises and a consistency check (``MirrorMaintenance/problems()``, `fresh
/// check`) found broken, in the same words from either store.
public enum BrokenPromise {
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
