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
    /// A link's target as the field writes it, and resolved against the response's URL: `nil`
    /// when the text is no URL (`<http://[::1>`) or names no scheme.
    public struct WrittenTarget: Sendable, Equatable {
        public var text: String
        public var url: URL?

        public init(text: String, url: URL?) {
            self.text = text
            self.url = url
        }
    }

    /// Every well-formed link in the field lines, in order, relative targets resolved against `base`.
    public static func parse(_ fieldValues: [String], base: URL? = nil) -> [WebLink] {
        written(fieldValues, base: base).compactMap { link in
            link.target.url.map { WebLink(target: $0, relations: link.relations, parameters: link.parameters) }
        }
    }

    /// The target of the first link whose relation types include `relation` (case-insensitively),
    /// a target that is no URL included: a caller can then say so, where skipping it would take
    /// the link for absent (a next page's link for the end of a listing).
    public static func target(of relation: String, in fieldValues: [String], base: URL? = nil) -> WrittenTarget? {
        let relation = relation.lowercased()
        return written(fieldValues, base: base).first { $0.relations.contains(relation) }?.target
    }

    /// The relation types of every link in the field lines, those whose target is no URL included.
    public static func relations(in fieldValues: [String]) -> [String] {
        written(fieldValues, base: nil).flatMap(\.relations)
    }

    private typealias WrittenLink = (target: WrittenTarget, relations: [String], parameters: [String: String])

    /// Every link in the field lines with a target in angle brackets, in order.
    private static func written(_ fieldValues: [String], base: URL?) -> [WrittenLink] {
        fieldValues.flatMap { fieldValue in
            FieldScanner.scanning(fieldValue) { scanner in
                var links: [WrittenLink] = []
                while true {
                    scanner.skip { $0 == .space || $0 == .tab || $0 == .comma }
                    guard !scanner.isAtEnd else { return links }
                    guard let target = scanner.angleBracketed() else {
                        scanner.skipToListSeparator()
                        continue
                    }
                    var parameters = linkParameters(&scanner)
                    scanner.skipToListSeparator()
                    let url = URL(string: target, relativeTo: base)?.absoluteURL
                    let relations = (parameters.removeValue(forKey: "rel") ?? "").lowercased()
                        .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                    links.append((WrittenTarget(text: target, url: url?.scheme == nil ? nil : url), relations, parameters))
                }
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
