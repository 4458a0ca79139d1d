import Foundation

/// A URL's path and query as a mirror compares them: the path, and the query's parameters
/// decoded, in any order (`?b=2&a=1` is `?a=1&b=2`).
struct RequestTarget: Equatable, Sendable {
    var path: String
    /// Each parameter's name and value, decoded, sorted by name then value.
    var parameters: [Parameter]

    struct Parameter: Equatable, Comparable, Sendable {
        var name: String
        var value: String

        static func < (left: Parameter, right: Parameter) -> Bool {
            (left.name, left.value) < (right.name, right.value)
        }
    }

    /// The target of a request: its path and its query as sent (`nil`: none).
    init(path: String, query: String?) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        // A broken escape is compared as it was sent.
        let decoded = { (text: Substring) in QueryParameters.decoded(text) ?? String(text) }
        parameters = (query ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Parameter(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
        }.sorted()
    }

    /// The target of an absolute URL; `nil` when it is not one.
    init?(url: String) {
        guard let components = URLComponents(string: url) else { return nil }
        self.init(path: components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath,
                  query: components.percentEncodedQuery)
    }

    // MARK: Nearness

    /// What differs from `recorded`, in words: the path, then each parameter.
    func differences(from recorded: RequestTarget) -> [String] {
        var found: [String] = []
        if path != recorded.path { found.append("the path is \(path), recorded \(recorded.path)") }
        let asked = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let kept = Dictionary(recorded.parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for name in Set(asked.keys).union(kept.keys).sorted() {
            switch (asked[name], kept[name]) {
            case let (value?, recordedValue?) where value != recordedValue:
                found.append("parameter '\(name)' is '\(value)', recorded '\(recordedValue)'")
            case (let value?, nil):
                found.append("parameter '\(name)' ('\(value)') was not recorded")
            case (nil, let recordedValue?):
                found.append("parameter '\(name)' is absent, recorded '\(recordedValue)'")
            default:
                break
            }
        }
        return found
    }

    /// How far `recorded` is from this target: another path counts more than every parameter,
    /// and a parameter absent on one side more than another value.
    func distance(to recorded: RequestTarget) -> Int {
        let asked = Set(parameters.map(\.name)), kept = Set(recorded.parameters.map(\.name))
        let valuesDiffer = asked.intersection(kept).filter { name in
            parameters.filter { $0.name == name } != recorded.parameters.filter { $0.name == name }
        }.count
        return (path == recorded.path ? 0 : 1_000) + 2 * asked.symmetricDifference(kept).count + valuesDiffer
    }
}
