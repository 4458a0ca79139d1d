/// What a mirror promises and a consistency check (``MirrorMaintenance/problems()``, `fresh
/// check`) found broken, in the same words from either store. Each holds for a collection whose
/// last pass was complete.
public enum BrokenPromise {
    /// Every current item is on a page that exists.
    public static func itemsOnNoPage(collection: String, count: Int) -> String {
        "collection \(collection): \(count) items on no page"
    }

    /// Every page of the last pass holds the items it listed (`pageIndex` counts from 0).
    public static func shortPage(collection: String, pageIndex: Int) -> String {
        "collection \(collection): page \(pageIndex + 1) holds fewer items than it listed"
    }

    /// The item count a pass's end kept is, while it holds, the count of the items stored.
    public static func keptCount(collection: String, kept: Int, stored: Int) -> String {
        "collection \(collection): its item count kept at the last pass's end is \(kept), but \(stored) items are stored"
    }
}
