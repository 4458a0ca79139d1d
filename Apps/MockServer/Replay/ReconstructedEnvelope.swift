import Foundation
import JSON
import MirrorStore
import Pagination

extension PageEnvelope {
    /// The envelope of a page stored without one (a mirror made before envelopes were kept, or
    /// an NDJSON page), made from its collection's plan: the items where the plan reads them and
    /// the members the style follows, with the values the record kept (the next URL, its cursor,
    /// whether there is more, the stated total). Without a plan: a bare array with a `Link`.
    static func reconstructed(for record: PageRecord, plan: PaginationPlan?) -> PageEnvelope {
        let next = record.nextURL
        var members: [(path: JSONPath, json: String)] = []
        var fields: [Field] = []
        switch plan?.style ?? .link {
        case .link, .single:
            if let next { fields.append(Field(name: "Link", value: "<\(next)>; rel=\"next\"")) }
        case .nextURL(let path):
            members.append((path, Self.json(next)))
        case .cursor(let path, let parameter, let hasMore):
            let cursor = next.flatMap { URLComponents(string: $0)?.queryItems?.first { $0.name == parameter }?.value }
            members.append((path, Self.json(cursor)))
            if let hasMore { members.append((hasMore, next == nil ? "false" : "true")) }
        case .hasMore(let flag, _):
            members.append((flag, next == nil ? "false" : "true"))
        case .after:
            break
        case .offset(_, let total), .page(_, _, _, let total):
            if let total, let stated = record.statedTotal { members.append((total, String(stated))) }
            else if let stated = record.statedTotal { fields.append(Field(name: "X-Total-Count", value: String(stated))) }
        }
        if let total = plan?.total, let stated = record.statedTotal, !members.contains(where: { $0.path == total }) {
            members.append((total, String(stated)))
        }
        let (before, after) = Self.object(items: plan?.items ?? .root, members: members)
        return PageEnvelope(fields: fields, before: before, after: after)
    }

    /// The text of an object holding the items' array at `items` and each member, split where
    /// the array goes.
    private static func object(items: JSONPath, members: [(path: JSONPath, json: String)]) -> (before: String, after: String) {
        guard !items.isRoot else { return ("", "") }
        let marker = "\u{0}items\u{0}"
        var tree = Node.object([])
        tree.insert(marker, at: items.components[...])
        for member in members where !member.path.isRoot { tree.insert(member.json, at: member.path.components[...]) }
        let text = tree.text
        guard let range = text.range(of: marker) else { return ("", "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    /// `text` as a JSON string, or `null`.
    private static func json(_ text: String?) -> String {
        text.map(JSONText.quoted) ?? "null"
    }

    /// An object being built: members in the order given, each a raw JSON value or an object.
    private indirect enum Node {
        case value(String)
        case object([(name: String, node: Node)])

        mutating func insert(_ json: String, at path: ArraySlice<String>) {
            guard let name = path.first else { self = .value(json); return }
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.name == name }) {
                members[index].node.insert(json, at: path.dropFirst())
            } else {
                var child = path.count == 1 ? Node.value(json) : Node.object([])
                if path.count > 1 { child.insert(json, at: path.dropFirst()) }
                members.append((name, child))
            }
            self = .object(members)
        }

        var text: String {
            switch self {
            case .value(let json): json
            case .object(let members): "{" + members.map { JSONText.quoted($0.name) + ":" + $0.node.text }.joined(separator: ",") + "}"
            }
        }
    }
}
