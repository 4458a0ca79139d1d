import Foundation

// MARK: - QueryParameters

/// The decoded query string of a request, with typed, validated accessors that throw
/// ``APIError/invalidQuery(name:message:)`` instead of guessing.
struct QueryParameters: Sendable {
    private var values: [String: String]

    /// Parses `a=1&b=2`; a value with broken percent-encoding (`%zz`) is an error.
    init(query: String?) throws(APIError) {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0]).replacingOccurrences(of: "+", with: " ")
            let rawValue = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            guard let name = rawName.removingPercentEncoding else {
                throw .invalidQuery(name: rawName, message: "invalid percent-encoding in the name")
            }
            guard let value = rawValue.removingPercentEncoding else {
                throw .invalidQuery(name: name, message: "invalid percent-encoding in '\(rawValue)'")
            }
            values[name] = value
        }
        self.values = values
    }

    /// The raw value of `name`; an empty value counts as absent.
    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// The integer value of `name` within `range`, `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let raw = self[name] else { return defaultValue }
        guard let value = Int(raw), range.contains(value) else {
            throw .invalidQuery(
                name: name,
                message: "'\(raw)' is not an integer between \(range.lowerBound) and \(range.upperBound)"
            )
        }
        return value
    }
}
