import Foundation
import HTTPFields
import HTTPTypes
import MirrorStore
import Pagination

/// One stored page as a replay sends it: its envelope around its items, the origin's URLs in it
/// pointing at the replay, and the origin's validators.
struct ReplayedPage {
    let page: RecordedPage
    /// The page's envelope: the stored one, else one made from the collection's plan.
    let envelope: PageEnvelope
    let items: [String]
    /// The collection's origin (`http://host:port`) and the replay's, which its URLs are moved to.
    let origin: String
    let replayOrigin: String

    init(_ page: RecordedPage, plan: PaginationPlan?, items: [String], replayOrigin: String) {
        self.page = page
        self.envelope = page.envelope ?? .reconstructed(for: page.record, plan: plan)
        self.items = items
        self.origin = Self.origin(of: page.record.url)
        self.replayOrigin = replayOrigin
    }

    /// `scheme://authority` of `url` (what comes before its path).
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let rest = url[schemeEnd.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(url[..<end])
    }

    var representation: Representation {
        var headers = HTTPFields()
        for field in envelope.fields {
            guard let name = HTTPField.Name(field.name), name == .link || name == .xTotalCount else { continue }
            headers.append(HTTPField(name: name, value: pointedHere(field.value)))
        }
        let body = Data(pointedHere(String(decoding: envelope.body(items: items), as: UTF8.self)).utf8)
        let content = RepresentationContent(body: body, headers: headers, changed: .exactly(Date(timeIntervalSince1970: page.record.fetchedAt)))
        let (identity, gzip) = entityTags
        return Representation(content, entityTag: identity, gzipEntityTag: gzip,
                              lastModified: envelope.value(of: "Last-Modified").flatMap(HTTPDate.parse))
    }

    /// The origin's entity tag, on every coding the replay sends (which coding the origin's tag
    /// named is not kept: the client decoded the body); else a strong tag of what is stored, and
    /// its `-gzip` form. The same wherever the replay listens, and after it restarts.
    private var entityTags: (identity: EntityTag, gzip: EntityTag?) {
        if let sent = envelope.value(of: "ETag").flatMap(EntityTag.lenient) { return (sent, sent) }
        var stored = Data(envelope.storedText.utf8)
        for item in items { stored.append(contentsOf: item.utf8) }
        return (EntityTag(hashing: stored), nil)
    }

    /// `text` with the origin's absolute URLs (also as JSON escapes them, `http:\/\/…`) moved to the replay.
    private func pointedHere(_ text: String) -> String {
        guard !origin.isEmpty, !replayOrigin.isEmpty, origin != replayOrigin else { return text }
        let escaped = { (url: String) in url.replacingOccurrences(of: "/", with: "\\/") }
        return text.replacingOccurrences(of: origin, with: replayOrigin).replacingOccurrences(of: escaped(origin), with: escaped(replayOrigin))
    }
}
