import Foundation
import HTTPTypes

/// json-server's query conventions on `GET /NAME` of a `--data` collection, for its users:
/// - `FIELD=VALUE` keeps the items whose member (a dotted path for a nested one) is VALUE as text;
/// - `q=TEXT` keeps the items with TEXT in any string value, ignoring case;
/// - `_sort=A,-B` sorts by members (`-`: descending), or `_sort=A&_order=desc` as json-server 0.17;
/// - `_page=N&_per_page=M`: json-server 1.0's object (`first`, `prev`, `next`, `last`, `pages`,
///   `items`, `data`); `_page=N&_limit=M` (10 by default): json-server 0.17's bare array with
///   `Link` and `X-Total-Count`; `_limit=M` alone: the first M.
///
/// Without any of them the collection answers in its own style (`--style`). A parameter that is
/// none of these, of the style's, nor a member of any item is refused with its name.
struct JSONServerQuery: Sendable, Equatable {
    /// The parameters of json-server's own (`FIELD=VALUE` aside).
    static let names: Set<String> = ["_page", "_limit", "_per_page", "_sort", "_order", "q"]
    /// `_limit` when `_page` is given without a size, as json-server.
    static let defaultLimit = 10

    struct Filter: Sendable, Equatable {
        var path: [String]
        var value: String
    }

    struct SortKey: Sendable, Equatable {
        var path: [String]
        var descending: Bool
    }

    var filters: [Filter] = []
    var search: String?
    var sort: [SortKey] = []
    var page: Int?
    var limit: Int?
    var perPage: Int?
    /// `since=`, which narrows the items as it does a page of the style's.
    var since: SinceParameter?

    /// The conventions `query` uses, `nil` when none; `filterNames` are the parameters that name
    /// members (every name but json-server's, the style's and `since`).
    init?(_ query: QueryParameters, filterNames: [String]) throws(APIError) {
        let given = Set(query.names)
        guard !given.isDisjoint(with: Self.names) || !filterNames.isEmpty else { return nil }
        for name in filterNames.sorted() {
            filters.append(Filter(path: name.split(separator: ".").map(String.init), value: try query.text(name, emptyMeansAbsent: false) ?? ""))
        }
        search = try query.text("q")
        since = try SinceParameter(query)
        page = given.contains("_page") ? try query.integer("_page", default: 1, in: 1...PageParameter.maxPosition) : nil
        limit = given.contains("_limit") ? try query.integer("_limit", default: Self.defaultLimit, in: 1...PageParameter.maxPosition) : nil
        perPage = given.contains("_per_page") ? try query.integer("_per_page", default: 10, in: 1...PageParameter.maxPosition) : nil
        if limit != nil, perPage != nil {
            throw .invalidQuery(name: "_per_page", message: "goes with _page as json-server 1.0 does; _limit is json-server 0.17's: give one")
        }
        let orders = try query.text("_order").map { $0.split(separator: ",").map(String.init) } ?? []
        for order in orders where order != "asc" && order != "desc" {
            throw .invalidQuery(name: "_order", message: "'\(order)' is neither asc nor desc")
        }
        let fields = try query.text("_sort").map { $0.split(separator: ",").map(String.init) } ?? []
        if !orders.isEmpty, fields.isEmpty { throw .invalidQuery(name: "_order", message: "goes with _sort") }
        sort = fields.enumerated().map { index, field in
            let descending = field.hasPrefix("-") || (index < orders.count ? orders[index] : orders.last) == "desc"
            return SortKey(path: field.drop { $0 == "-" }.split(separator: ".").map(String.init), descending: descending)
        }
    }

    /// The parameters that choose and order the items (all but the paging ones), decoded, in a
    /// fixed order: what a page's links carry on.
    private var choosing: [(name: String, value: String)] {
        filters.map { ($0.path.joined(separator: "."), $0.value) }
            + [search.map { ("q", $0) }, since.map { (SinceParameter.name, $0.text) },
               sort.isEmpty ? nil : ("_sort", sort.map { ($0.descending ? "-" : "") + $0.path.joined(separator: ".") }.joined(separator: ","))]
                .compactMap { $0 }
    }

    /// What identifies the answer, to key its kept representation.
    var canonical: String {
        let paging = [page.map { ("_page", String($0)) }, limit.map { ("_limit", String($0)) }, perPage.map { ("_per_page", String($0)) }]
        return "json-server?" + Self.query(choosing + paging.compactMap { $0 })
    }

    /// `name=value&…`, each part percent-encoded.
    private static func query(_ parameters: [(name: String, value: String)]) -> String {
        let safe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~,"))
        let encoded = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: safe) ?? text }
        return parameters.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
    }

    // MARK: Answering

    /// The answer over `collection`'s items at `path` (links start with `origin`).
    func render(_ collection: ItemCollection, path: String, origin: String) -> RepresentationContent {
        let chosen = selected(collection.items.all)
        let newest = chosen.lazy.map(\.updatedAt).max() ?? collection.baseline
        var headers = HTTPFields()
        headers[.xTotalCount] = String(chosen.count)
        if let page, let perPage {
            let pages = max(1, (chosen.count + perPage - 1) / perPage)
            var object = JSONObjectBuilder()
            object.add("first", 1)
            object.add("prev", page > 1 ? .integer(min(page - 1, pages)) : JSONTree.null)
            object.add("next", page < pages ? .integer(page + 1) : JSONTree.null)
            object.add("last", pages)
            object.add("pages", pages)
            object.add("items", chosen.count)
            object.add("data", raw: JSONObjectBuilder.array(of: Self.slice(chosen, page: page, size: perPage)))
            return RepresentationContent(body: object.data, headers: headers, changed: .notBefore(newest))
        }
        guard let page else {
            return RepresentationContent(body: JSONObjectBuilder.array(of: Array(chosen.prefix(limit ?? chosen.count))), headers: headers,
                                         changed: .notBefore(newest))
        }
        let size = limit ?? Self.defaultLimit
        headers[.link] = link(page: page, size: size, count: chosen.count, path: path, origin: origin)
        return RepresentationContent(body: JSONObjectBuilder.array(of: Self.slice(chosen, page: page, size: size)), headers: headers,
                                     changed: .notBefore(newest))
    }

    /// The items the filters and the search keep, sorted.
    func selected(_ items: [MockItem]) -> [MockItem] {
        let items = since.map { since in items.filter(since.includes) } ?? items
        guard !filters.isEmpty || search != nil || !sort.isEmpty else { return items }
        let decoded = items.map { (item: $0, members: JSONTree.object($0.members)) }
        var kept = decoded.filter { entry in
            filters.allSatisfy { entry.members.value(at: $0.path)?.queryText == $0.value }
                && search.map { entry.members.contains(text: $0.lowercased()) } ?? true
        }
        if !sort.isEmpty {
            kept.sort { left, right in
                for key in sort {
                    let (a, b) = (left.members.value(at: key.path), right.members.value(at: key.path))
                    if JSONTree.sortsBefore(a, b) { return !key.descending }
                    if JSONTree.sortsBefore(b, a) { return key.descending }
                }
                return false
            }
        }
        return kept.map(\.item)
    }

    private static func slice(_ items: [MockItem], page: Int, size: Int) -> [MockItem] {
        let (start, overflow) = (page - 1).multipliedReportingOverflow(by: size)
        guard !overflow, start < items.count else { return [] }
        return Array(items[start..<min(start + size, items.count)])
    }

    /// json-server 0.17's `Link`: first, prev, next and last, each with the query's other parameters.
    private func link(page: Int, size: Int, count: Int, path: String, origin: String) -> String {
        let last = max(1, (count + size - 1) / size)
        func url(_ number: Int, _ relation: String) -> String {
            "<\(origin)\(path)?" + Self.query(choosing + [("_page", String(number)), ("_limit", String(size))]) + ">; rel=\"\(relation)\""
        }
        var links = [url(1, "first")]
        if page > 1 { links.append(url(min(page - 1, last), "prev")) }
        if page < last { links.append(url(page + 1, "next")) }
        links.append(url(last, "last"))
        return links.joined(separator: ", ")
    }
}

extension JSONTree {
    /// The value at `path` below this object.
    func value(at path: [String]) -> JSONTree? {
        var current: JSONTree? = self
        for name in path { current = current?.objectMembers?[name] }
        return current
    }

    /// The text a query parameter compares with: a string as it is, a number, boolean or `null`
    /// as JSON writes it.
    var queryText: String? {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): value
        case .array, .object: nil
        }
    }

    /// Whether any string below this value holds `text` (lower-cased), ignoring case.
    func contains(text: String) -> Bool {
        switch self {
        case .string(let value): value.lowercased().contains(text)
        case .array(let values): values.contains { $0.contains(text: text) }
        case .object(let members): members.values.contains { $0.contains(text: text) }
        default: false
        }
    }

    /// json-server's order for `_sort`: numbers by value before strings by text; absent last.
    static func sortsBefore(_ left: JSONTree?, _ right: JSONTree?) -> Bool {
        switch (left, right) {
        case (.integer(let a)?, .integer(let b)?): a < b
        case (.integer(let a)?, .number(let b)?): Double(a) < b
        case (.number(let a)?, .integer(let b)?): a < Double(b)
        case (.number(let a)?, .number(let b)?): a < b
        case (.integer?, .string?), (.number?, .string?): true
        case (.string(let a)?, .string(let b)?): a < b
        case (_?, nil): true
        default: false
        }
    }
}
