import Foundation

/// Where a page is: the first page, a cursor from the previous page's body, a URL from a
/// `Link: rel="next"` header, or an offset.
public enum PageToken: Hashable, Sendable, CustomStringConvertible {
    case first
    case cursor(String)
    case url(URL)
    case offset(Int)

    public var description: String {
        switch self {
        case .first: "first page"
        case .cursor(let cursor): "cursor \(cursor)"
        case .url(let url): url.absoluteString
        case .offset(let offset): "offset \(offset)"
        }
    }
}

/// One loaded page: its items and where the next one is (`nil` at the end).
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var next: PageToken?

    public init(items: [Item], next: PageToken?) {
        self.items = items
        self.next = next
    }
}
