import Foundation
import JSON

/// What pagination reads of one page's response: its URL, `Link` and `X-Total-Count` fields, and body.
public struct PageResponse: Sendable {
    public var url: URL
    public var linkFields: [String]
    public var totalCountField: String?
    public var document: JSONDocument

    public init(url: URL, linkFields: [String] = [], totalCountField: String? = nil, document: JSONDocument) {
        self.url = url
        self.linkFields = linkFields
        self.totalCountField = totalCountField
        self.document = document
    }
}

/// What a page holds: its array of items and the key of each, in order.
public struct PageItems: Sendable {
    /// The array of items.
    public var array: JSONValue
    public var keys: [ItemKey]
    /// Whether the page had no items' member at all (see ``none``).
    public var isAbsent = false

    public var count: Int { array.count }

    /// A page without its items' member (see ``PaginationPlan/items(of:absentIsNone:)``).
    public static let none = PageItems(array: (try! JSONDocument(Data("[]".utf8))).root, keys: [], isAbsent: true)
}

/// Where a page points: the next page's URL, or why the page is the last.
public struct PageLink: Sendable, Equatable {
    /// The next page, or `nil` at the end.
    public var next: URL?
    /// Why this page is the last, when it is (`'next_cursor' is null`, `a short page (7 of 20 items)`, …).
    public var endReason: String?
    /// The collection size the page states (items, else pages): what a pass checks its mirror
    /// against, and whose fall from one page to a later one says items slid back past the pages read.
    public var statedTotal: Int?

    public init(next: URL?, endReason: String?, statedTotal: Int? = nil) {
        self.next = next
        self.endReason = endReason
        self.statedTotal = statedTotal
    }

    /// Whether the next page exists because a total the page states says so: that page then
    /// cannot be missing (a 404, say) without the collection being cut short.
    public var totalSaysMore: Bool { next != nil && statedTotal != nil }
}

/// One page read with a plan: what it holds and where it points.
public struct PageReading: Sendable {
    public var items: PageItems
    public var link: PageLink
}

/// Why a page cannot be read. Each case reads as part of one line that names the page's URL.
public enum PageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No array of items where the plan (or detection) expects one.
    case noItems(path: JSONPath, found: String, members: [String])
    /// An item is not an object.
    case itemNotObject(index: Int, kind: JSONValue.Kind)
    /// An item has no usable key.
    case itemWithoutKey(index: Int, key: JSONPath, found: String)
    /// Two items of one page share a key.
    case duplicateKey(ItemKey, firstIndex: Int, secondIndex: Int)
    /// A next-page member holds something that is not a URL.
    case invalidNextURL(path: JSONPath, value: String)
    /// The `Link` field's `rel="next"` names something that is not an http(s) URL.
    case invalidNextLink(String)
    /// The `--paginate` style needs a member the first page does not have.
    case styleNotApplicable(style: String, reason: String)
    /// The page ends the walk before the total the server states.
    case endsBeforeTotal(String)

    public var description: String {
        switch self {
        case .noItems(let path, let found, let members):
            let place = path.isRoot ? "the body" : "'\(path)'"
            let listing = members.isEmpty ? "" : " (members: \(members.prefix(12).joined(separator: ", "))\(members.count > 12 ? ", …" : ""))"
            return "no array of items: \(place) is \(found)\(listing); say where the items are with --items PATH"
        case .itemNotObject(let index, let kind): return "item \(index + 1) is \(kind.phrase), not an object"
        case .itemWithoutKey(let index, let key, let found):
            return "item \(index + 1) has no usable key '\(key)' (\(found)); choose the key member with --key FIELD"
        case .duplicateKey(let key, let first, let second):
            return "items \(first + 1) and \(second + 1) have the same key \(key); choose a unique key member with --key FIELD"
        case .invalidNextURL(let path, let value): return "'\(path)' should hold the next page's URL but holds \(value)"
        case .invalidNextLink(let target): return "the Link field's rel=\"next\" should name the next page's URL but names \(target)"
        case .styleNotApplicable(let style, let reason): return "--paginate \(style): \(reason)"
        case .endsBeforeTotal(let reason): return reason
        }
    }
}
