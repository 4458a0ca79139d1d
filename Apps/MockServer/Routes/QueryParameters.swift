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
            let rawName = parts[0]
            let rawValue = parts.count > 1 ? parts[1] : ""
            guard let name = Self.decoded(rawName) else {
                throw .invalidQuery(name: Self.plusAsSpace(rawName), message: "invalid percent-encoding in the name")
            }
            guard let value = Self.decoded(rawValue) else {
                throw .invalidQuery(name: name, message: "invalid percent-encoding in '\(Self.plusAsSpace(rawValue))'")
            }
            values[name] = value
        }
        self.values = values
    }

    /// `component` with `+` as space and percent-escapes decoded; `nil` when an escape is broken.
    ///
    /// Most components (`limit=20`) have neither, and skip Foundation's decoding altogether.
    private static func decoded(_ component: Substring) -> String? {
        let needsDecoding = component.utf8.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
        guard needsDecoding else { return String(component) }
        return plusAsSpace(component).removingPercentEncoding
    }

    /// `component` with every `+` replaced by a space (form encoding).
    private static func plusAsSpace(_ component: Substring) -> String {
        String(component).replacingOccurrences(of: "+", with: " ")
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
