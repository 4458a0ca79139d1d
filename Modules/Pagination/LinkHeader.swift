import Foundation

/// One link of an RFC 8288 `Link` header: a target and its relation types.
public struct WebLink: Sendable, Equatable {
    public var target: URL
    public var relations: [String]
    public var parameters: [String: String]

    public init(target: URL, relations: [String], parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }
}

/// Parses RFC 8288 `Link` headers: `<url>; rel="next", <url>; rel="prev last"`.
public enum LinkHeader {
    /// Every well-formed link in the field values; malformed members are skipped.
    /// Relative targets resolve against `base`.
    public static func parse(_ fieldValues: [String], base: URL? = nil) -> [WebLink] {
        fieldValues.flatMap { parseOne($0, base: base) }
    }

    /// The target of the first link whose relations include `relation` (case-insensitive).
    public static func target(of relation: String, in fieldValues: [String], base: URL? = nil) -> URL? {
        parse(fieldValues, base: base).first { $0.relations.contains(relation.lowercased()) }?.target
    }

    private static func parseOne(_ value: String, base: URL?) -> [WebLink] {
        var links: [WebLink] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            var parameters: [String: String] = [:]
            while let next = rest.first(where: { !$0.isWhitespace }), next == ";" {
                rest = rest.drop { $0.isWhitespace }.dropFirst()
                let name = rest.prefix { $0 != "=" && $0 != ";" && $0 != "," }
                rest = rest.dropFirst(name.count)
                var parameterValue = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop { $0.isWhitespace }
                    if rest.first == "\"" {
                        rest = rest.dropFirst()
                        let quoted = rest.prefix { $0 != "\"" }
                        parameterValue = String(quoted)
                        rest = rest.dropFirst(quoted.count).dropFirst()
                    } else {
                        let token = rest.prefix { $0 != ";" && $0 != "," }
                        parameterValue = token.trimmingCharacters(in: .whitespaces)
                        rest = rest.dropFirst(token.count)
                    }
                }
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                if !key.isEmpty && parameters[key] == nil { parameters[key] = parameterValue }
            }
            rest = rest.drop { $0 != "," && $0 != "<" }
            guard let url = URL(string: target, relativeTo: base)?.absoluteURL else { continue }
            let relations = (parameters["rel"] ?? "").lowercased().split(separator: " ").map(String.init)
            links.append(WebLink(target: url, relations: relations, parameters: parameters))
        }
        return links
    }
}
