import Foundation
import HTTPFields
import JSON

extension PaginationPlan {
    /// Reads one page whole: what it holds, then where it points (`typicalSize`: ``PageWalk/typicalSize``).
    public func read(_ page: PageResponse, typicalSize: Int? = nil, absentIsNone: Bool = false) throws(PageError) -> PageReading {
        let items = try items(of: page, absentIsNone: absentIsNone)
        return PageReading(items: items, link: try link(of: page, items: items, typicalSize: typicalSize))
    }

    /// What the page holds: its items, each an object with a key no other item of the page has,
    /// and those keys. With `absentIsNone` (`--items` named the member), a page without that member
    /// holds no items instead of failing (a partial mirror: ``PartialMirror/absentItems(_:)``).
    public func items(of page: PageResponse, absentIsNone: Bool = false) throws(PageError) -> PageItems {
        if absentIsNone, !items.isRoot, page.document.value(at: items) == nil { return .none }
        let array = try ItemLocator.array(at: items, in: page.document)
        return PageItems(array: array, keys: try ItemLocator.keys(of: array, key: key))
    }

    /// Where the page points, given what it holds: the next page's URL, or why it is the last.
    public func link(of page: PageResponse, items: PageItems, typicalSize: Int?) throws(PageError) -> PageLink {
        // A page shorter than the first (what the server really sends) and than the size asked
        // is the last. The first page is measured by nothing: a server that caps its pages (100
        // sent where 200 were asked) sends a short one, and the next page, empty at the end, says
        // whether there is more; taken for the last, it ended the pass with the rest unread.
        let asked = sizeParameter.flatMap { QueryItems.value(of: $0, in: page.url) }.flatMap { Int($0) }
        let shortBelow = typicalSize.map { min($0, asked ?? $0) }
        let (next, reason) = try nextPage(after: page, itemCount: items.count, lastKey: items.keys.last, shortBelow: shortBelow,
                                          typicalSize: typicalSize, lastItem: { items.array.elements.last })
        return PageLink(next: next, endReason: next == nil ? reason : nil, statedTotal: statedTotal(of: page))
    }

    /// Whether the walk reckons the next page from the items counted (an offset, a page number,
    /// the last key), where the other styles follow what the server says comes next.
    public var countsItsOwnPages: Bool {
        switch style {
        case .after, .offset, .page: true
        case .link, .nextURL, .cursor, .hasMore, .single: false
        }
    }

    // MARK: Ahead of the items

    /// Whether a page's link can be read before its items (``linkAhead(of:)``): not counted from them.
    public var linksAheadOfItems: Bool {
        switch style {
        case .link, .nextURL, .cursor: true
        case .hasMore, .after, .offset, .page, .single: false
        }
    }

    /// How deep a skimming read must record the body for ``linkAhead(of:)``: to the link, and to
    /// the stated total.
    public var linkDepth: Int {
        let link = switch style {
        case .nextURL(let path): path.components.count + 1 // a link object's `href`
        case .cursor(let path, _, let hasMore): max(path.components.count, hasMore?.components.count ?? 0)
        default: 0
        }
        return max(link, total?.components.count ?? 0)
    }

    /// Where the page points, and the total it states, read without its items from a body skimmed
    /// to ``linkDepth``: what ``link(of:items:typicalSize:)`` gives, for the styles that allow it (``linksAheadOfItems``);
    /// `nil` for the others, and for a link that cannot be read (the full reading then says why).
    public func linkAhead(of page: PageResponse) -> PageLink? {
        guard linksAheadOfItems, let (next, reason) = try? nextPage(after: page, itemCount: 0, lastKey: nil, shortBelow: nil, typicalSize: nil) else {
            return nil
        }
        return PageLink(next: next, endReason: next == nil ? reason : nil, statedTotal: statedTotal(of: page))
    }

    /// The collection size a page's `X-Total-Count` field states, when the plan reads none from
    /// the body: a page answered 304 (its body, and so a size in it, unchanged) still states the
    /// current size this way, which may have changed since its body did.
    public func headerTotal(_ field: String?) -> Int? {
        let paths = bodyTotalPaths
        guard paths.items == nil, paths.pages == nil else { return nil }
        return Self.count(inField: field)
    }

    /// Where the body states the collection's size: in items, or in pages (`total_pages`).
    private var bodyTotalPaths: (items: JSONPath?, pages: JSONPath?) {
        switch style {
        case .offset(_, let totalPath): (totalPath, nil)
        case .page(_, _, let totalPagesPath, let totalPath): (totalPath, totalPagesPath)
        default: (total, nil)
        }
    }

    private func statedTotal(of page: PageResponse) -> Int? {
        let paths = bodyTotalPaths
        return total(at: paths.items, in: page) ?? paths.pages.flatMap { page.document.value(at: $0)?.integer }
    }

    private func nextPage(after page: PageResponse, itemCount count: Int, lastKey: ItemKey?, shortBelow: Int?, typicalSize: Int?,
                          lastItem: () -> JSONValue? = { nil }) throws(PageError) -> (URL?, String) {
        let document = page.document
        switch style {
        case .link:
            guard let next = LinkField.target(of: "next", in: page.linkFields, base: page.url) else { return (nil, "no Link rel=\"next\"") }
            guard let url = next.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw .invalidNextLink("<\(next.text.prefix(80))>")
            }
            return (url, "")
        case .nextURL(let path): return try NextURLReading.next(at: path, in: document, relativeTo: page.url)
        case .cursor(let path, let parameter, let hasMore):
            if let hasMore, document.value(at: hasMore)?.bool == false { return (nil, "'\(hasMore)' is false") }
            guard let cursor = document.value(at: path) else { return (nil, "'\(path)' is absent") }
            let text: String
            switch cursor.kind {
            case .string: text = cursor.string ?? ""
            case .number: text = cursor.rawText
            case .null: return (nil, "'\(path)' is null")
            default: return (nil, "'\(path)' is \(cursor.kind.phrase)")
            }
            if text.isEmpty || text == "0" { return (nil, "'\(path)' is \"\(text)\"") }
            return (QueryItems.setting(parameter, to: text, in: page.url), "")
        case .hasMore(let flag, let parameter):
            guard let more = document.value(at: flag)?.bool else { return (nil, "'\(flag)' is absent") }
            guard more else { return (nil, "'\(flag)' is false") }
            guard let last = lastKey else { return (nil, "an empty page") }
            return (QueryItems.setting(parameter, to: last.text, in: page.url), "")
        case .after(let parameter, let member):
            if count == 0 { return (nil, "an empty page") }
            if let shortBelow, count < shortBelow { return (nil, "a short page (\(count) of \(shortBelow) items)") }
            let value: String
            if let member {
                let last = lastItem()
                guard let found = last?.value(at: member), found.kind != .null else {
                    throw .noItems(path: member, found: "absent from the last item", members: last?.members.map(\.name) ?? [])
                }
                value = found.string ?? String(decoding: found.compactBytes, as: UTF8.self)
            } else {
                guard let lastKey else { return (nil, "an empty page") }
                value = lastKey.text
            }
            return (QueryItems.setting(parameter, to: value, in: page.url), "")
        case .offset(let parameter, let totalPath):
            let offset = QueryItems.value(of: parameter, in: page.url).flatMap { Int($0) } ?? 0
            let next = QueryItems.setting(parameter, to: String(offset + count), in: page.url)
            if let total = total(at: totalPath, in: page) {
                // A stated total ends the walk, not a short page: servers cap page sizes.
                if offset + count >= total { return (nil, "offset \(offset) + \(count) items reached the total of \(total)") }
                guard count > 0 else { throw .endsBeforeTotal("the page at offset \(offset) is empty, but the total is \(total) items") }
                return (next, "")
            }
            if count == 0 { return (nil, "an empty page") }
            if let shortBelow, count < shortBelow { return (nil, "a short page (\(count) of \(shortBelow) items)") }
            return (next, "")
        case .page(let parameter, let start, let totalPagesPath, let totalPath):
            let number = QueryItems.value(of: parameter, in: page.url).flatMap { Int($0) } ?? start
            let ordinal = number - start + 1
            let next = QueryItems.setting(parameter, to: String(number + 1), in: page.url)
            if let pages = totalPagesPath.flatMap({ document.value(at: $0)?.integer }) {
                if ordinal >= pages { return (nil, "page \(number) is the last of \(pages)") }
                guard count > 0 else { throw .endsBeforeTotal("page \(number) is empty, but there are \(pages) pages") }
                return (next, "")
            }
            if let total = total(at: totalPath, in: page) {
                // Pages before this one held as many items as the first (the size the server
                // really sends, which may be less than the size asked for).
                let listed = (ordinal - 1) * (typicalSize ?? count) + count
                if listed >= total { return (nil, "page \(number) reached the total of \(total) items") }
                guard count > 0 else { throw .endsBeforeTotal("page \(number) is empty, but the total is \(total) items") }
                return (next, "")
            }
            if count == 0 { return (nil, "an empty page") }
            if let shortBelow, count < shortBelow { return (nil, "a short page (\(count) of \(shortBelow) items)") }
            return (next, "")
        case .single: return (nil, "a single document")
        }
    }

    /// The collection size from the body, else from `X-Total-Count`.
    private func total(at path: JSONPath?, in page: PageResponse) -> Int? {
        path.flatMap { page.document.value(at: $0)?.integer } ?? Self.count(inField: page.totalCountField)
    }

    /// The number an `X-Total-Count` field holds.
    private static func count(inField field: String?) -> Int? {
        field.flatMap { Int($0.trimmingWhitespace()) }
    }
}

/// The next-url style's member: a URL (absolute or relative), a link object with `href`, or the end.
enum NextURLReading {
    static func next(at path: JSONPath, in document: JSONDocument, relativeTo base: URL) throws(PageError) -> (URL?, String) {
        guard var value = document.value(at: path) else { return (nil, "'\(path)' is absent") }
        if value.kind == .object, let href = value.member("href") { value = href }
        switch value.kind {
        case .null: return (nil, "'\(path)' is null")
        case .string:
            let text = value.string ?? ""
            if text.isEmpty { return (nil, "'\(path)' is \"\"") }
            guard let url = URL(string: text, relativeTo: base)?.absoluteURL,
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw .invalidNextURL(path: path, value: "\"\(text.prefix(80))\"")
            }
            return (url, "")
        case .bool where value.bool == false: return (nil, "'\(path)' is false")
        default: throw .invalidNextURL(path: path, value: value.kind.phrase)
        }
    }
}
