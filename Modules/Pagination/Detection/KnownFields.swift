import JSON

/// The members real APIs use for pagination, looked for in a first page's envelope.
enum KnownFields {
    /// Objects that group pagination members.
    static let containers: [[String]] = [[], ["meta"], ["pagination"], ["paging"], ["page_info"], ["pageInfo"],
                                         ["response_metadata"], ["meta", "pagination"], ["links"], ["_links"], ["paging", "cursors"]]

    /// Members holding the next page's URL (in any container above).
    static let nextURLNames = ["next", "next_url", "nextUrl", "next_page_url", "nextPageUrl", "nextLink", "@odata.nextLink",
                               "next_link", "nextPageURL"]

    /// Members holding a cursor, with the query parameter it is sent back as.
    static let cursorNames: [(name: String, parameter: String)] = [
        ("next_cursor", "cursor"), ("nextCursor", "cursor"), ("next_page_token", "page_token"), ("nextPageToken", "pageToken"),
        ("next_token", "next_token"), ("nextToken", "nextToken"), ("end_cursor", "after"), ("endCursor", "after"),
        ("continuation", "continuation"), ("continuationToken", "continuationToken"), ("after", "after"), ("next", "cursor"),
        ("next_page", "cursor"), // fastapi-pagination's cursor pages (a page number there is no cursor: see the detector)
    ]

    /// Boolean members saying whether more pages follow.
    static let hasMoreNames = ["has_more", "hasMore", "has_next", "hasNext", "has_next_page", "hasNextPage", "more"]

    /// Query parameters and members that number pages.
    static let pageParameters = ["page", "_page", "page_number", "pageNumber", "page[number]", "p"]
    static let pageMembers = ["page", "current_page", "currentPage", "page_number", "pageNumber"]
    static let totalPagesNames = ["total_pages", "totalPages", "last_page", "lastPage", "page_count", "pageCount", "num_pages", "pages"]

    /// Query parameters and members that give an item offset.
    static let offsetParameters = ["offset", "skip", "start", "_start", "from"]

    /// Members giving the collection's size.
    static let totalNames = ["total", "total_count", "totalCount", "total_results", "totalResults", "total_items", "totalItems", "count"]

    /// The first `container.name` path (containers, then names, in order) whose value `accepts`.
    static func firstPath(named names: [String], in document: JSONDocument,
                          where accepts: (JSONValue) -> Bool) -> JSONPath? {
        for container in containers {
            for name in names {
                let path = JSONPath(container + [name])
                if let value = document.value(at: path), accepts(value) { return path }
            }
        }
        return nil
    }
}
