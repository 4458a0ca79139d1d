import Foundation

/// One link of an RFC 8288 `Link` field: a target, its relation types and its other parameters.
public struct WebLink: Sendable, Equatable {
    /// The target, resolved against the URL of the response that carried it.
    public var target: URL
    /// Relation types, lower-cased (`rel="next last"` gives two).
    public var relations: [String]
    /// Other parameters by lower-cased name, unquoted (the first occurrence of each).
    public var parameters: [String: String]

    public init(target: URL, relations: [String], parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }
}

/// The `Link` field (RFC 8288 §3): `<uri>; rel="next", <uri>; rel="prev last"`.
public enum LinkField {
    /// Every well-formed link in the field lines, in order, relative targets resolved against `base`.
    public static func parse(_ fieldValues: [String], base: URL? = nil) -> [WebLink] {
        fieldValues.flatMap { parse($0, base: base) }
    }

    /// The target of the first link whose relation types include `relation` (case-insensitively).
    public static func target(of relation: String, in fieldValues: [String], base: URL? = nil) -> URL? {
        let relation = relation.lowercased()
        return parse(fieldValues, base: base).first { $0.relations.contains(relation) }?.target
    }

    private static func parse(_ fieldValue: String, base: URL?) -> [WebLink] {
        FieldScanner.scanning(fieldValue) { scanner in
            var links: [WebLink] = []
            while true {
                scanner.skip { $0 == .space || $0 == .tab || $0 == .comma }
                guard !scanner.isAtEnd else { return links }
                guard let target = scanner.angleBracketed() else {
                    scanner.skipToListSeparator()
                    continue
                }
                var parameters = linkParameters(&scanner)
                scanner.skipToListSeparator()
                guard let url = URL(string: target, relativeTo: base)?.absoluteURL, url.scheme != nil else { continue }
                let relations = (parameters.removeValue(forKey: "rel") ?? "").lowercased()
                    .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                links.append(WebLink(target: url, relations: relations, parameters: parameters))
            }
        }
    }

    /// `*( OWS ";" OWS link-param )` up to the next link; the first occurrence of a name wins
    /// (RFC 8288 §3.3).
    private static func linkParameters(_ scanner: inout FieldScanner) -> [String: String] {
        var parameters: [String: String] = [:]
        while true {
            scanner.skipWhitespace()
            guard scanner.consume(.semicolon) else { return parameters }
            scanner.skipWhitespace()
            guard let name = scanner.lowercasedToken() else { continue }
            scanner.skipWhitespace()
            var value = ""
            if scanner.consume(.equals) {
                scanner.skipWhitespace()
                value = scanner.quotedString() ?? scanner.token() ?? ""
            }
            if parameters[name] == nil { parameters[name] = value }
        }
    }
}
