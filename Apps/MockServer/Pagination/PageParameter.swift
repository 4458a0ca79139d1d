/// A query parameter of a paged route: its name, what it takes, and its default. Request
/// parsing and `/openapi.json` both read these, so the document states exactly what the server
/// accepts.
struct PageParameter: Sendable {
    /// What a parameter takes.
    enum Kind: Sendable {
        /// An integer in `range`, `defaultValue` when absent.
        case integer(range: ClosedRange<Int>, defaultValue: Int)
        /// A cursor this server handed out; empty (or absent) for the first page.
        case cursor
        /// The key of an item of the collection.
        case key
    }

    /// The name in the query string.
    let name: String
    let kind: Kind
    /// One line for `/openapi.json`.
    let summary: String

    // MARK: The parameters

    /// Page size when the request names none.
    static let defaultPageSize = 20
    /// Largest accepted page size.
    static let maxPageSize = 100
    /// Largest accepted page number or offset.
    static let maxPosition = 1_000_000_000

    static let page = PageParameter(
        name: "page", kind: .integer(range: 1...maxPosition, defaultValue: 1), summary: "Page number from 1 (default 1)")
    static let perPage = PageParameter(
        name: "per_page", kind: .integer(range: 1...maxPageSize, defaultValue: defaultPageSize),
        summary: "Page size 1…\(maxPageSize) (default \(defaultPageSize))")
    static let offset = PageParameter(
        name: "offset", kind: .integer(range: 0...maxPosition, defaultValue: 0),
        summary: "Index of the first item, from 0 (default 0)")
    static let limit = PageParameter(
        name: "limit", kind: .integer(range: 1...maxPageSize, defaultValue: defaultPageSize),
        summary: "Page size 1…\(maxPageSize) (default \(defaultPageSize))")
    static let cursor = PageParameter(
        name: "cursor", kind: .cursor, summary: "An opaque cursor from the previous page, verbatim (absent or empty: first page)")
    static let startingAfter = PageParameter(
        name: "starting_after", kind: .key, summary: "Key of the last item of the previous page (absent: first page)")

    /// The parameters of each way of paging.
    static func parameters(of paging: MockPaginationStyle.Paging) -> [PageParameter] {
        switch paging {
        case .pageNumber: [page, perPage]
        case .offset: [offset, limit]
        case .cursor: [limit, cursor]
        case .startingAfter: [limit, startingAfter]
        }
    }
}
