import Foundation
import JSON

/// The value of `fresh sync --paginate STYLE[:NAME=VALUE,…]`: a style name and the settings
/// that detection cannot guess, e.g. `cursor:path=meta.after,param=after` or
/// `offset:param=skip,size=take`.
public struct PaginateSpec: Sendable, Equatable {
    public var style: String
    public var options: [String: String]

    /// The settings each style accepts (`size`, the page size parameter, is accepted by all).
    public static let optionsByStyle: [String: [String]] = [
        "link": [], "next-url": ["path"], "cursor": ["path", "param", "has-more"], "has-more": ["path", "param"], "after": ["param", "from"],
        "offset": ["param", "total"], "page": ["param", "start", "total-pages", "total"], "single": [],
    ]

    /// Parses the argument; the error message says what is wrong and what is allowed.
    public init(parsing text: String) throws(PaginateSpecError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        style = parts.first?.lowercased() ?? ""
        guard let allowed = Self.optionsByStyle[style] else {
            throw PaginateSpecError("unknown style '\(style)': use one of \(PaginationStyle.names.joined(separator: ", "))")
        }
        options = [:]
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: ",") {
            let nameValue = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard nameValue.count == 2, !nameValue[1].isEmpty else { throw PaginateSpecError("'\(pair)' is not NAME=VALUE") }
            let name = nameValue[0].lowercased()
            guard allowed.contains(name) || name == "size" else {
                let names = (allowed + ["size"]).joined(separator: ", ")
                throw PaginateSpecError("'\(name)' is not a setting of \(style) (settings: \(names))")
            }
            if name == "path" || name == "from" || name == "total" || name == "total-pages" || name == "has-more" {
                guard JSONPath(parsing: nameValue[1]) != nil else { throw PaginateSpecError("'\(nameValue[1])' is not a member path like meta.next") }
            }
            if name == "start" { guard Int(nameValue[1]) != nil else { throw PaginateSpecError("start=\(nameValue[1]) is not a number") } }
            options[name] = nameValue[1]
        }
    }

    /// The member path a setting names (`path`, `total`, …), if given.
    public func path(_ name: String) -> JSONPath? { options[name].flatMap { JSONPath(parsing: $0) } }
}

/// Why a `--paginate` value is refused.
public struct PaginateSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
