/// A path of member names from a JSON value down to another: `links.next`,
/// `response_metadata.next_cursor`. A name containing a dot is written in quotes:
/// `"@odata.nextLink"`. The empty path is the value itself.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, Codable {
    public var components: [String]

    public init(_ components: [String]) { self.components = components }

    /// Parses the dotted form; `nil` for an empty component or an unterminated quote.
    public init?(parsing text: String) {
        var components: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                wasQuoted = true
            } else if character == "." && !quoted {
                guard !current.isEmpty || wasQuoted else { return nil }
                components.append(current)
                current = ""
                wasQuoted = false
            } else {
                current.append(character)
            }
        }
        guard !quoted else { return nil }
        if !text.isEmpty {
            guard !current.isEmpty || wasQuoted else { return nil }
            components.append(current)
        }
        self.components = components
    }

    /// The root itself.
    public static let root = JSONPath([])
    public var isRoot: Bool { components.isEmpty }

    /// The dotted form, quoting names that contain a dot or a quote.
    public var description: String {
        components.map { $0.contains(".") || $0.contains("\"") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: ".")
    }

    /// The same path in SQLite's JSON path syntax: `$` or `$."links"."next"`.
    public var sqlitePath: String {
        "$" + components.map { ".\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined()
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let path = JSONPath(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid JSON path \(text)"))
        }
        self = path
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
