import Foundation
import HTTPTypes
import MirrorStore
import Pagination

extension CollectionRecord {
    /// The stored plan, decoded.
    public var paginationPlan: PaginationPlan? {
        plan.flatMap { try? JSONDecoder().decode(PaginationPlan.self, from: Data($0.utf8)) }
    }
}

extension CollectionRecord {
    /// The header fields the collection's syncs send again, decoded (see ``headers``).
    public var keptHeaderFields: HTTPFields {
        let pairs = headers.flatMap { try? JSONDecoder().decode([[String]].self, from: Data($0.utf8)) } ?? []
        return HTTPFields(pairs.compactMap { pair in
            pair.count == 2 ? HTTPField.Name(pair[0]).map { HTTPField(name: $0, value: pair[1]) } : nil
        })
    }

    /// `fields` as ``headers`` stores them; `nil` for none.
    static func headersJSON(_ fields: HTTPFields) -> String? {
        let pairs = fields.map { [$0.name.rawName, $0.value] }
        return pairs.isEmpty ? nil : (try? JSONEncoder().encode(pairs)).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension PaginationPlan {
    /// The plan as the mirror stores it, JSON.
    func json() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }
}
