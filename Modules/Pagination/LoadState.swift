/// The state of a paginated list, as a UI shows it under the last row.
public enum LoadState: Sendable, Equatable {
    /// More pages may follow; nothing is loading.
    case idle
    /// A page is on its way.
    case loading
    /// The last page has been loaded.
    case endReached
    /// The last attempt failed; asking again retries the same page.
    case failed(String)
}
