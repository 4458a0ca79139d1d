import JSON

/// The page a request asks for, parsed from its query by the style's parameters: one case per
/// ``MockPaginationStyle/Paging``, with the values of its parameters (`nil` cursor or key: the first page).
enum PageQuery: Equatable, Sendable {
    case pageNumber(page: Int, perPage: Int)
    case offset(offset: Int, limit: Int)
    case cursor(KeysetCursor?, limit: Int)
    case startingAfter(ItemKey?, limit: Int)

    /// Parses the parameters of `paging` for a collection with `keyKind` keys.
    /// `pageSize`, when given, is the page size of a request that names none.
    init(_ paging: MockPaginationStyle.Paging, query: QueryParameters, keyKind: ItemCollection.KeyKind, pageSize: Int? = nil) throws(APIError) {
        switch paging {
        case .pageNumber:
            self = .pageNumber(page: try query.integer(.page), perPage: try query.integer(.perPage, default: pageSize))
        case .offset:
            self = .offset(offset: try query.integer(.offset), limit: try query.integer(.limit, default: pageSize))
        case .cursor:
            let limit = try query.integer(.limit, default: pageSize)
            let cursor = try query.text(PageParameter.cursor.name, emptyMeansAbsent: true).map { (raw) throws(APIError) in
                try KeysetCursor(encoded: raw, keyKind: keyKind)
            }
            self = .cursor(cursor, limit: limit)
        case .startingAfter:
            let limit = try query.integer(.limit, default: pageSize)
            let name = PageParameter.startingAfter.name
            let key = try query.text(name).map { (raw) throws(APIError) -> ItemKey in
                switch keyKind {
                case .string: return .string(raw)
                case .integer:
                    guard let value = Int(raw) else { throw .invalidQuery(name: name, message: "'\(raw)' is not an integer key") }
                    return .integer(value)
                }
            }
            self = .startingAfter(key, limit: limit)
        }
    }

    /// The canonical query: equal for requests that ask for the same page, so it keys the kept
    /// representation (`after=40&limit=20`).
    var canonical: String {
        switch self {
        case .pageNumber(let page, let perPage): "page=\(page)&per_page=\(perPage)"
        case .offset(let offset, let limit): "offset=\(offset)&limit=\(limit)"
        case .cursor(nil, let limit), .startingAfter(nil, let limit): "limit=\(limit)"
        case .cursor(let cursor?, let limit): "cursor=\(cursor.encoded)&limit=\(limit)"
        case .startingAfter(let key?, let limit): "after=\(key.pathSegment)&limit=\(limit)"
        }
    }
}
