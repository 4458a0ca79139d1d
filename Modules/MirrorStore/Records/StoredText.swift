import Foundation
import HTTPTypes
import Pagination

/// How a collection's plan and kept header fields are written in a store's text columns: JSON,
/// the same in every store, so a mirror moved between stores reads the same.
public enum StoredText {
    /// The plan as JSON.
    public static func text(of plan: PaginationPlan) -> String {
        // A plan is made of strings, numbers and paths: its encoding cannot fail.
        String(decoding: (try? JSONEncoder().encode(plan)) ?? Data(), as: UTF8.self)
    }

    /// The plan stored as `text`; `nil` when there is none or it cannot be read (the next sync detects it).
    public static func plan(from text: String?) -> PaginationPlan? {
        text.flatMap { try? JSONDecoder().decode(PaginationPlan.self, from: Data($0.utf8)) }
    }

    /// The fields as `[["Accept", "application/vnd.github+json"], …]`; `nil` for none.
    public static func text(of fields: HTTPFields) -> String? {
        let pairs = fields.map { [$0.name.rawName, $0.value] }
        return pairs.isEmpty ? nil : (try? JSONEncoder().encode(pairs)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The fields stored as `text` (none when there is no text, or it cannot be read).
    public static func headerFields(from text: String?) -> HTTPFields {
        let pairs = text.flatMap { try? JSONDecoder().decode([[String]].self, from: Data($0.utf8)) } ?? []
        return HTTPFields(pairs.compactMap { pair in
            pair.count == 2 ? HTTPField.Name(pair[0]).map { HTTPField(name: $0, value: pair[1]) } : nil
        })
    }
}
