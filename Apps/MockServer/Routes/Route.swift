import HTTPTypes

/// Every kind of route the server answers. Its ``template`` names it in the per-route
/// statistics, in fault rules and in `/openapi.json`.
enum Route: Hashable, Sendable {
    // MARK: Seeded data
    /// `/posts`: cursor pages (the `cursor-zero` style) and `POST`.
    case posts
    /// `/posts/{id}`: one post, read and written against the post schema.
    case post
    /// `/articles`: the `link` style plus `X-Total-Count`.
    case articles
    /// `/feed`: the `offset-total` style.
    case feed
    /// `/exercises`: one large document.
    case exercises
    /// `/news`: a newest-first listing by page number or offset, which moves while it is read.
    case news

    // MARK: Any collection
    /// `/NAME`: the collection in the default style (`--style`), and `POST`.
    case collection(String)
    /// `/NAME/{id}`: one item of any JSON object shape.
    case item(String)
    /// `/styles/STYLE/NAME`: the collection in one pagination style.
    case styled(MockPaginationStyle, String)

    // MARK: A mirror (`--mirror`)
    /// A page of a mirrored collection, at the path `fresh sync` requested it at (its template:
    /// the collection's first page's path, else the path itself).
    case mirrored(String)

    // MARK: Documents
    /// `/styles`: every style, its end condition and its URLs.
    case styleIndex
    /// `/openapi.json`.
    case openAPI
    /// `/db`: every collection of a `--data` file in one object, as json-server serves it.
    case database

    // MARK: Admin
    case stats, journal, faults, reset, tick
    /// `/_admin/misses`: the URLs a mirror could not answer (`--mirror`).
    case misses

    /// The path template: `/posts/{id}`, `/users`, `/styles/has-more/users`.
    var template: String {
        switch self {
        case .posts: "/posts"
        case .post: "/posts/{id}"
        case .articles: "/articles"
        case .feed: "/feed"
        case .exercises: "/exercises"
        case .news: "/news"
        case .collection(let name): "/\(name)"
        case .item(let name): "/\(name)/{id}"
        case .styled(let style, let name): "/styles/\(style.rawValue)/\(name)"
        case .mirrored(let path): path
        case .styleIndex: "/styles"
        case .openAPI: "/openapi.json"
        case .database: "/db"
        case .stats: "/_admin/stats"
        case .journal: "/_admin/journal"
        case .faults: "/_admin/faults"
        case .reset: "/_admin/reset"
        case .tick: "/_admin/tick"
        case .misses: "/_admin/misses"
        }
    }

    /// The methods the route accepts (what `Allow` lists on a 405); GET routes accept HEAD too.
    var methods: [HTTPRequest.Method] {
        switch self {
        case .posts, .collection: [.get, .head, .post]
        case .post, .item: [.get, .head, .put, .patch, .delete]
        case .articles, .feed, .exercises, .news, .styled, .mirrored, .styleIndex, .openAPI, .database, .stats, .journal, .misses: [.get, .head]
        case .faults: [.get, .head, .put, .delete]
        case .reset, .tick: [.post]
        }
    }

    /// Whether the route steers the server rather than serving API data (never faulted or rate limited).
    var isAdmin: Bool {
        [.stats, .journal, .faults, .reset, .tick, .misses].contains(self)
    }

    /// The collection a paged route serves, and the style it serves it in (`defaultStyle` for `/NAME`).
    func pagedCollection(defaultStyle: MockPaginationStyle) -> (style: MockPaginationStyle, collection: String)? {
        switch self {
        case .posts: (.cursorZero, ItemCollection.postsName)
        case .articles: (.link, "articles")
        case .feed: (.offsetTotal, "feed")
        case .collection(let name): (defaultStyle, name)
        case .styled(let style, let name): (style, name)
        default: nil
        }
    }
}
