import Foundation
import MirrorStore
import Pagination

extension CollectionRecord {
    /// The stored plan, decoded.
    public var paginationPlan: PaginationPlan? {
        plan.flatMap { try? JSONDecoder().decode(PaginationPlan.self, from: Data($0.utf8)) }
    }
}

extension PaginationPlan {
    /// The plan as the mirror stores it, JSON.
    func json() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }
}
