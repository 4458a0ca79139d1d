/// The items a pass's end would remove (``PassWriting/unlistedItems(after:of:lastPage:)``), told
/// apart by their count and the sum of their row numbers: two readings that agree found the
/// same items unlisted (an item moved between pages keeps its row).
public struct UnlistedItems: Sendable, Equatable {
    public var count: Int
    public var rowSum: Int64

    public init(count: Int, rowSum: Int64) {
        self.count = count
        self.rowSum = rowSum
    }

    public var isEmpty: Bool { count == 0 }
}
