/// The reader's marks of what its user has seen: the items written after the mark are new to
/// them (``CollectionRecord/shownSequence``). Kept in the store so that every reader of a shared
/// mirror, and the next session, see the same marks; no sync reads or writes them.
public protocol ShownMarks: AnyObject, Sendable {
    /// Records that a reader showed the collection as it was after page write `sequence`.
    func markShown(_ id: Int64, upTo sequence: Int) async throws
}
