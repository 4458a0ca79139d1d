import Foundation
import HTTPTypes
import Models
import Synchronization

/// `GET /news`: a newest-first listing that moves while it is read, as busy feeds do: with
/// ``NewsArrivals`` new entries join the front while clients page through it (by page number or
/// offset), so the entries of one page come back on the next.
final class NewsRoutes: Sendable {
    /// How many requests `/news` has answered, and since when: what ``NewsArrivals`` counts from.
    private struct Clock {
        var requests = 0
        var start = ContinuousClock.now
        var added = 0
    }

    let store: MockStore
    let validators: Validators
    let arrivals: NewsArrivals?
    private let clock = Mutex(Clock())

    init(store: MockStore, validators: Validators, arrivals: NewsArrivals?) {
        self.store = store
        self.validators = validators
        self.arrivals = arrivals
    }

    func respond(to request: APIRequest) throws(APIError) -> Reply {
        try addArrivals()
        let query = try NewsQuery(request.query)
        let origin = request.origin
        return try store.reply(to: request.headers, of: .collection(ItemCollection.newsName), key: "\(origin)/news?\(query.canonical)",
                               validators: validators) { data throws(APIError) in
            guard let news = data.collections[ItemCollection.newsName] else { throw .notFound("no news") }
            return NewsPage(query: query, news: news, origin: origin).content
        }
    }

    /// Back to no arrivals yet (part of `/_admin/reset`).
    func reset() {
        clock.withLock { $0 = Clock() }
    }

    /// Adds the entries ``arrivals`` says are due by now.
    private func addArrivals() throws(APIError) {
        guard let arrivals else { return }
        let count = clock.withLock { clock in
            clock.requests += 1
            let due = arrivals.due(afterRequests: clock.requests, elapsed: clock.start.duration(to: .now))
            defer { clock.added = max(clock.added, due) }
            return max(0, due - clock.added)
        }
        guard count > 0 else { return }
        try store.write(.collection(ItemCollection.newsName)) { (data: inout MockData, now: Date) throws(APIError) in
            var random = data.newsRandom
            _ = data.withCollection(ItemCollection.newsName) { news in
                for _ in 0..<count {
                    var text = TextGenerator(seed: random.next())
                    let post = Post(id: news.makeIntegerKey(), title: text.title(), body: text.body(), author: text.author(), updatedAt: now)
                    _ = news.insert(MockItem(post: post))
                }
            }
            data.newsRandom = random
        }
    }
}

/// The page a `/news` request asks for.
struct NewsQuery: Sendable, Equatable {
    enum Paging: Sendable, Equatable {
        case page(number: Int, perPage: Int)
        case offset(Int, limit: Int)
    }

    var paging: Paging
    /// Only entries updated at or after a time.
    var since: SinceParameter?

    init(_ query: QueryParameters) throws(APIError) {
        // Each read, used or not, so that a bad or repeated one is refused, never ignored.
        let (offset, limit) = (try query.integer(.offset), try query.integer(.limit))
        let (page, perPage) = (try query.integer(.page), try query.integer(.perPage))
        paging = try query.text(PageParameter.offset.name) != nil ? .offset(offset, limit: limit) : .page(number: page, perPage: perPage)
        since = try SinceParameter(query)
    }

    /// The query of the page `start` items in, for links and the kept representation's key.
    func query(startingAt start: Int) -> String {
        let paging = switch paging {
        case .page(_, let perPage): "page=\(start / perPage + 1)&per_page=\(perPage)"
        case .offset(_, let limit): "offset=\(start)&limit=\(limit)"
        }
        return paging + (since?.queryPart ?? "")
    }

    /// Where the page starts, and how many it holds.
    var window: (start: Int, size: Int) {
        switch paging {
        case .page(let number, let perPage):
            let (start, overflow) = (number - 1).multipliedReportingOverflow(by: perPage)
            return (overflow ? Int.max / 2 : start, perPage)
        case .offset(let offset, let limit): return (offset, limit)
        }
    }

    var canonical: String { query(startingAt: window.start) }
}

/// One page of `/news`: its entries newest first, its `Link` and `X-Total-Count`.
struct NewsPage {
    let query: NewsQuery
    let news: ItemCollection
    let origin: String

    var content: RepresentationContent {
        let listed = news.items.all.reversed().filter { item in query.since?.includes(item) ?? true }
        let (start, size) = query.window
        let end = min(listed.count, start.addingReportingOverflow(size).overflow ? listed.count : start + size)
        let items = start < end ? listed[start..<end] : []
        var headers = HTTPFields()
        headers[.link] = link(start: start, size: size, total: listed.count)
        headers[.xTotalCount] = String(listed.count)
        let newest = items.lazy.map(\.updatedAt).max() ?? news.baseline
        return RepresentationContent(body: JSONObjectBuilder.array(of: items), headers: headers, changed: .notBefore(newest))
    }

    /// `<URL>; rel="first"`, `"prev"`, `"next"` (while entries follow) and `"last"`.
    private func link(start: Int, size: Int, total: Int) -> String {
        func link(_ at: Int, _ relation: String) -> String { "<\(origin)/news?\(query.query(startingAt: at))>; rel=\"\(relation)\"" }
        let lastStart = total == 0 ? 0 : (total - 1) / size * size
        var links = [link(0, "first")]
        if start > 0 { links.append(link(max(0, min(start - size, lastStart)), "prev")) }
        if start + size < total { links.append(link(start + size, "next")) }
        links.append(link(lastStart, "last"))
        return links.joined(separator: ", ")
    }
}
