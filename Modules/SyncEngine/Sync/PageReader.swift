import Foundation
import HTTPTypes
import JSON
import MirrorStore
import Pagination

/// Reads the pages a sync fetched with the collection's plan (stored, or detected from the first
/// page): what each holds (its items, as the JSON bytes the server sent, keyed) and where it points.
struct PageReader: Sendable {
    /// How the collection's pages are read; `nil` until the first page is.
    var plan: PaginationPlan?
    /// Whether the user named where the items are (`--items`): a page without that member then
    /// holds none, and says so, rather than failing.
    var itemsGiven = false

    /// A page's items as the mirror stores them: each key with its JSON text.
    typealias Items = [(key: ItemKey, json: Data)]

    // MARK: Whole pages

    /// The plan for the collection whose first page `fetched` is, what the user fixed winning.
    mutating func detectPlan(from fetched: FetchedPage, overrides: PaginationDetector.Overrides) throws -> PaginationPlan {
        let page = try parse(fetched, depth: JSONDocument.recordedDepth, itemsAtRoot: overrides.items == nil)
        let detected = try pageError(at: fetched) { () throws(PageError) in try PaginationDetector.plan(for: page, overrides: overrides) }
        plan = detected
        return detected
    }

    /// What the page holds and where it points, whether its items' member was absent (see
    /// ``itemsGiven``), and the page without its items (``PageEnvelope``). The plan must be known.
    func read(_ fetched: FetchedPage, typicalSize: Int?) throws -> (items: Items, link: PageLink, absent: Bool, envelope: PageEnvelope?) {
        let plan = try knownPlan()
        let page = try parse(fetched, depth: plan.recordedDepth)
        return try pageError(at: fetched) { () throws(PageError) in
            let items = try plan.items(of: page, absentIsNone: itemsGiven)
            return (Self.stored(items), try plan.link(of: page, items: items, typicalSize: typicalSize), items.isAbsent,
                    Self.envelope(of: fetched, page: page, items: items))
        }
    }

    // MARK: The link before the items

    /// Where a page just downloaded points, from a quick pass over its body before its items are
    /// read (``PaginationPlan/linkAhead(of:)``); `nil` when its style or the quick pass cannot tell.
    func linkAhead(of fetched: FetchedPage) -> PageLink? {
        guard let plan, plan.linksAheadOfItems, !fetched.isFromStorage,
              let document = try? JSONDocument(skimming: fetched.response.body, recordedDepth: plan.linkDepth) else { return nil }
        return plan.linkAhead(of: response(fetched, document))
    }

    /// What a page whose link was read ahead holds, whether its items' member was absent, and its envelope.
    func items(of fetched: FetchedPage) throws -> (items: Items, absent: Bool, envelope: PageEnvelope?) {
        let plan = try knownPlan()
        let page = try parse(fetched, depth: plan.recordedDepth)
        let items = try pageError(at: fetched) { () throws(PageError) in try plan.items(of: page, absentIsNone: itemsGiven) }
        return (Self.stored(items), items.isAbsent, Self.envelope(of: fetched, page: page, items: items))
    }

    /// A member `spec` names that the first page `fetched` lacks (see ``PartialMirror``).
    func absentMember(of spec: PaginateSpec?, in fetched: FetchedPage) throws -> String? {
        guard let spec else { return nil }
        let depth = spec.options.keys.compactMap { spec.path($0)?.components.count }.max() ?? 1
        return PartialMirror.absentMember(of: spec, in: try parse(fetched, depth: max(depth, JSONDocument.recordedDepth)).document)
    }

    // MARK: Parsing

    private func knownPlan() throws -> PaginationPlan {
        guard let plan else { preconditionFailure("a page is read with a plan: detect it from the first page") }
        return plan
    }

    private func parse(_ fetched: FetchedPage, depth: Int, itemsAtRoot: Bool? = nil) throws -> PageResponse {
        do {
            let atRoot = itemsAtRoot ?? (plan?.items.isRoot ?? true)
            return response(fetched, try PageBody.document(fetched.response.body, recordedDepth: depth, itemsAtRoot: atRoot))
        } catch {
            throw SyncError.invalidJSON(url: fetched.url.absoluteString, detail: error.description)
        }
    }

    private func response(_ fetched: FetchedPage, _ document: JSONDocument) -> PageResponse {
        PageResponse(url: fetched.url, linkFields: fetched.response.headerFields[values: .link],
                     totalCountField: fetched.response.headerFields[.xTotalCount], document: document)
    }

    private func pageError<Value>(at fetched: FetchedPage, _ body: () throws(PageError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw SyncError.invalidPage(url: fetched.url.absoluteString, detail: error.description)
        }
    }

    /// The page without its items, for a replay; `nil` when the document read is not the body
    /// as sent (NDJSON, a single object read as an array) or has no items' array.
    private static func envelope(of fetched: FetchedPage, page: PageResponse, items: PageItems) -> PageEnvelope? {
        guard !items.isAbsent, page.document.bytes == fetched.response.body else { return nil }
        let fields = fetched.response.headerFields.map { PageEnvelope.Field(name: $0.name.rawName, value: $0.value) }
        return PageEnvelope(body: fetched.response.body, itemsRange: items.array.byteRange, fields: fields)
    }

    /// Each item's key with its JSON text, without insignificant whitespace.
    private static func stored(_ items: PageItems) -> Items {
        zip(items.keys, items.array.elementsCompactBytes).map { (key: $0, json: $1) }
    }
}

extension HTTPField.Name {
    /// RFC 8288 `Link`.
    static let link = HTTPField.Name("Link")!
    /// The collection size some APIs send beside a page.
    static let xTotalCount = HTTPField.Name("X-Total-Count")!
}
