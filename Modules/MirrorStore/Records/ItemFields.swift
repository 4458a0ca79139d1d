import Foundation
import JSON

/// Which members of a collection's items a list shows: a title (the first present of
/// ``titleNames``, or the one the user named) and a second line (author, user, date). Chosen once
/// per collection from a sample item, so every row reads one member, not a list of guesses.
public enum ItemFields {
    /// Members that usually title an item, most likely first.
    public static let titleNames = ["title", "name", "subject", "summary", "headline", "label", "login", "username",
                                    "full_name", "display_name", "text", "body", "description", "message", "email", "url"]
    /// Members that usually say who or when.
    public static let subtitleNames = ["author", "user.login", "user.name", "user", "owner.login", "by", "creator", "from",
                                       "updated_at", "updatedAt", "created_at", "createdAt", "published_at", "date", "time"]

    /// The fields rows show for items like `sample` (the collection's first item).
    /// - Parameter title: the member the user chose (`--title`), used whatever the sample has.
    public static func choose(for sample: String?, title: JSONPath? = nil) -> RowFields {
        let document = sample.flatMap { try? JSONDocument(Data($0.utf8)) }
        func present(_ names: [String]) -> JSONPath? {
            names.lazy.compactMap { JSONPath(parsing: $0) }.first { path in
                guard let value = document?.value(at: path) else { return false }
                return [.string, .number, .bool].contains(value.kind)
            }
        }
        let titlePath = title ?? present(titleNames)
        let subtitle = present(subtitleNames.filter { JSONPath(parsing: $0) != titlePath })
        return RowFields(title: titlePath.map { [$0] } ?? [], subtitle: subtitle.map { [$0] } ?? [])
    }
}
