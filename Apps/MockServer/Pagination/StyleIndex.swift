/// The body of `GET /styles`: every pagination style, how to page it, how it ends, and its URL
/// for each collection.
struct StyleIndex: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        var name: String
        var shape: String
        var nextPage: String
        var endCondition: String
        var parameters: [String]
        /// Collection name → absolute URL of the style's first page.
        var urls: [String: String]

        enum CodingKeys: String, CodingKey {
            case name, shape, parameters, urls
            case nextPage = "next_page"
            case endCondition = "end_condition"
        }
    }

    /// The style of `GET /NAME`.
    var defaultStyle: String
    var styles: [Entry]

    enum CodingKeys: String, CodingKey {
        case styles
        case defaultStyle = "default_style"
    }

    init(origin: String, collections: [String], defaultStyle: MockPaginationStyle) {
        self.defaultStyle = defaultStyle.rawValue
        self.styles = MockPaginationStyle.allCases.map { style in
            Entry(
                name: style.rawValue, shape: style.shape, nextPage: style.nextPage, endCondition: style.endCondition,
                parameters: PageParameter.parameters(of: style.paging).map(\.name),
                urls: Dictionary(uniqueKeysWithValues: collections.map {
                    ($0, "\(origin)\(Route.styled(style, $0).template)\(style.firstPageQuery)")
                }))
        }
    }
}
