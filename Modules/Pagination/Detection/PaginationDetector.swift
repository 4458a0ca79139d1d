import Foundation
import JSON
import HTTPFields

/// Works out a collection's ``PaginationPlan`` from its first page: where the items are, which
/// member keys them, and how the page points to the next one. What the user said (`--paginate`,
/// `--items`, `--key`) wins; detection fills in the rest.
public enum PaginationDetector {
    /// What the user fixed on the command line.
    public struct Overrides: Sendable, Equatable {
        public var paginate: PaginateSpec?
        public var items: JSONPath?
        public var key: JSONPath?

        public init(paginate: PaginateSpec? = nil, items: JSONPath? = nil, key: JSONPath? = nil) {
            self.paginate = paginate
            self.items = items
            self.key = key
        }
    }

    /// The plan for the collection whose first page is `page`.
    public static func plan(for page: PageResponse, overrides: Overrides = Overrides()) throws(PageError) -> PaginationPlan {
        let document = page.document
        let itemsPath = if let path = overrides.items { path } else { try ItemLocator.locate(in: document) }
        // A first page without the member --items names holds none (the sync says so).
        let items = overrides.items != nil && document.value(at: itemsPath) == nil
            ? PageItems.none.array : try ItemLocator.array(at: itemsPath, in: document)
        let key = overrides.key ?? ItemLocator.key(for: items)
        let style: PaginationStyle = if let spec = overrides.paginate {
            try style(named: spec, page: page)
        } else {
            detectedStyle(page, items: items)
        }
        let sizeParameter = overrides.paginate?.options["size"] ?? PageSize.parameter(in: page.url)
        return PaginationPlan(style: style, items: itemsPath, key: key, sizeParameter: sizeParameter,
                              total: collectionSizePath(document, style: style))
    }

    // MARK: Detection

    private static func detectedStyle(_ page: PageResponse, items: JSONValue) -> PaginationStyle {
        let document = page.document
        let relations = LinkField.relations(in: page.linkFields)
        if relations.contains(where: { ["next", "last", "prev", "previous", "first"].contains($0) }) { return .link }
        if let numbered = numberedWithNextNumber(page) { return numbered }
        if let path = nextURLPath(document) { return .nextURL(path: path) }
        if let (path, parameter) = cursorPath(document, numbersArePages: !pageParametersNamed(in: page.url).isEmpty) {
            return .cursor(path: path, parameter: parameter, hasMore: hasMorePath(document))
        }
        if let flag = hasMorePath(document) { return .hasMore(flag: flag, parameter: "starting_after") }
        if searchAfterSorted(items) { return .after(parameter: "search_after", member: JSONPath(["sort"])) }
        if let parameter = pageParameter(page) {
            return .page(parameter: parameter, start: 1, totalPages: totalPagesPath(document), total: totalPath(document))
        }
        if let parameter = offsetParameter(page) { return .offset(parameter: parameter, total: totalPath(document)) }
        return sizedArrayStyle(page) ?? .single
    }

    /// json-server 1.0's pages: the page named in the URL (`_page`), a count of pages in the body
    /// (`"pages"`), and `next` the next page's number, `null` on the last: numbered pages, not a
    /// cursor nor a link's end (a listing that fits one page would otherwise stay `next-url`).
    private static func numberedWithNextNumber(_ page: PageResponse) -> PaginationStyle? {
        let document = page.document
        guard let parameter = pageParametersNamed(in: page.url).first, let totalPages = totalPagesPath(document),
              KnownFields.firstPath(named: ["next"], in: document, where: { $0.kind == .number || $0.kind == .null }) != nil else { return nil }
        return .page(parameter: parameter, start: 1, totalPages: totalPages, total: totalPath(document))
    }

    /// Search hits that carry their `sort` values (Elasticsearch, OpenSearch): the next page is
    /// asked `search_after` the last hit's, the only way past their 10,000-hit window.
    private static func searchAfterSorted(_ items: JSONValue) -> Bool {
        guard let first = items.elements.first else { return false }
        return first.value(at: JSONPath(["sort"]))?.kind == .array && first.value(at: JSONPath(["_id"])) != nil
    }

    /// A bare array asked for with a page size and no other hint pages the way its size parameter
    /// suggests (by page number or by offset); a short page, an empty one or a 404 then ends it.
    private static func sizedArrayStyle(_ page: PageResponse) -> PaginationStyle? {
        guard page.document.root.kind == .array, let size = PageSize.parameter(in: page.url) else { return nil }
        switch size {
        case "per_page", "page_size", "pageSize", "perPage", "size", "per-page", "pagesize":
            return .page(parameter: "page", start: 1, totalPages: nil, total: nil)
        case "take": return .offset(parameter: "skip", total: nil)
        default: return .offset(parameter: "offset", total: nil)
        }
    }

    private static func nextURLPath(_ document: JSONDocument) -> JSONPath? {
        KnownFields.firstPath(named: KnownFields.nextURLNames, in: document) { value in
            switch value.kind {
            case .null: true
            case .string: looksLikeURL(value.string ?? "")
            case .object: value.member("href").map { $0.kind == .null || looksLikeURL($0.string ?? "") } ?? false
            default: false
            }
        }
    }

    private static func looksLikeURL(_ text: String) -> Bool {
        text.hasPrefix("/") || text.hasPrefix("?") || text.contains("://")
    }

    /// The member that holds the next page's cursor, and the parameter it goes in. A number is
    /// one too, unless `numbersArePages`: with the page named in the URL (`?_page=1`), json-server's
    /// `"next": 2` is the next page's number.
    private static func cursorPath(_ document: JSONDocument, numbersArePages: Bool = false) -> (JSONPath, String)? {
        for (name, parameter) in KnownFields.cursorNames {
            // `next_page` is a token in some APIs and a page number in others: only the token is a cursor.
            let kinds: [JSONValue.Kind] = name == "next_page" || numbersArePages ? [.string, .null] : [.string, .number, .null]
            if let path = KnownFields.firstPath(named: [name], in: document, where: { kinds.contains($0.kind) }) {
                return (path, parameter)
            }
        }
        return nil
    }

    private static func hasMorePath(_ document: JSONDocument) -> JSONPath? {
        KnownFields.firstPath(named: KnownFields.hasMoreNames, in: document) { $0.kind == .bool }
    }

    private static func totalPath(_ document: JSONDocument) -> JSONPath? {
        KnownFields.firstPath(named: KnownFields.totalNames, in: document) { $0.integer != nil }
    }

    /// Where a page of any style states the collection's size: a total member (not `count`,
    /// which some envelopes use for the page's own items, unless it stands beside the next
    /// page's URL, as Django REST framework's `{"count", "next", "previous", "results"}` has it),
    /// or a search engine's `hits.total.value` (`hits.total` before Elasticsearch 7).
    private static func collectionSizePath(_ document: JSONDocument, style: PaginationStyle) -> JSONPath? {
        let names = KnownFields.totalNames.filter { $0 != "count" }
        if let path = KnownFields.firstPath(named: names, in: document, where: { $0.integer != nil }) { return path }
        if case .nextURL(let next) = style, !next.isRoot {
            let count = JSONPath(next.components.dropLast() + ["count"])
            if document.value(at: count)?.integer != nil { return count }
        }
        return [JSONPath(["hits", "total", "value"]), JSONPath(["hits", "total"])].first { document.value(at: $0)?.integer != nil }
    }

    private static func totalPagesPath(_ document: JSONDocument) -> JSONPath? {
        KnownFields.firstPath(named: KnownFields.totalPagesNames, in: document) { $0.integer != nil }
    }

    /// The page-number parameters `url` names, in ``KnownFields/pageParameters``' order.
    private static func pageParametersNamed(in url: URL) -> [String] {
        let names = QueryItems.names(in: url)
        return KnownFields.pageParameters.filter(names.contains)
    }

    /// The page-number parameter the URL uses, or `page` when the body numbers its pages.
    private static func pageParameter(_ page: PageResponse) -> String? {
        if let name = pageParametersNamed(in: page.url).first { return name }
        let numbered = KnownFields.firstPath(named: KnownFields.pageMembers, in: page.document) { $0.integer != nil } != nil
        return numbered ? "page" : nil
    }

    /// The offset parameter the URL uses, or the body's own offset member's name.
    private static func offsetParameter(_ page: PageResponse) -> String? {
        let names = QueryItems.names(in: page.url)
        if let name = KnownFields.offsetParameters.first(where: names.contains) { return name }
        return KnownFields.firstPath(named: KnownFields.offsetParameters, in: page.document) { $0.integer != nil }?.components.last
    }

    // MARK: A style the user named

    private static func style(named spec: PaginateSpec, page: PageResponse) throws(PageError) -> PaginationStyle {
        let document = page.document
        func required(_ path: JSONPath?, _ what: String) throws(PageError) -> JSONPath {
            guard let path else {
                throw .styleNotApplicable(style: spec.style, reason: "the first page has no \(what); name it with \(spec.style):path=MEMBER")
            }
            return path
        }
        switch spec.style {
        case "link": return .link
        case "next-url":
            return .nextURL(path: try required(spec.path("path") ?? nextURLPath(document), "next-page URL member"))
        case "cursor":
            let detected = cursorPath(document)
            let path = try required(spec.path("path") ?? detected?.0, "cursor member")
            let parameter = spec.options["param"] ?? detected?.1 ?? "cursor"
            return .cursor(path: path, parameter: parameter, hasMore: spec.path("has-more") ?? hasMorePath(document))
        case "after":
            return .after(parameter: spec.options["param"] ?? "after", member: spec.path("from"))
        case "has-more":
            let flag = try required(spec.path("path") ?? hasMorePath(document), "has_more member")
            return .hasMore(flag: flag, parameter: spec.options["param"] ?? "starting_after")
        case "offset":
            let parameter = spec.options["param"] ?? offsetParameter(page) ?? "offset"
            return .offset(parameter: parameter, total: spec.path("total") ?? totalPath(document))
        case "page":
            let parameter = spec.options["param"] ?? pageParameter(page) ?? "page"
            return .page(parameter: parameter, start: spec.options["start"].flatMap { Int($0) } ?? 1,
                         totalPages: spec.path("total-pages") ?? totalPagesPath(document), total: spec.path("total") ?? totalPath(document))
        default: return .single
        }
    }
}
