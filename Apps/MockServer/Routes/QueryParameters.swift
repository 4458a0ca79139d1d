import Foundation

/// The decoded query string of a request, with typed, validated accessors that throw
/// ``APIError/invalidQuery(name:message:)`` instead of guessing: a parameter the route reads
/// may be absent, but not empty (`limit=`; a cursor is the exception, see
/// ``text(_:emptyMeansAbsent:)``) and not repeated (`limit=1&limit=2`). Parameters no route
/// reads are ignored.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]
    /// Names given more than once.
    private var repeated: Set<String> = []

    /// Parses `a=1&b=2`; a value with broken percent-encoding (`%zz`) is an error.
    init(query: String?) throws(APIError) {
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
            if values.updateValue(value, forKey: name) != nil { repeated.insert(name) }
        }
    }

    /// The names given, each once.
    var names: [String] { Array(values.keys) }

    /// `component` with `+` as space and percent-escapes decoded; `nil` when an escape is broken.
    /// Most components (`limit=20`) have neither, and skip Foundation's decoding altogether.
    static func decoded(_ component: Substring) -> String? {
        let needsDecoding = component.utf8.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
        guard needsDecoding else { return String(component) }
        return plusAsSpace(component).removingPercentEncoding
    }

    /// `component` with every `+` replaced by a space (form encoding).
    private static func plusAsSpace(_ component: Substring) -> String {
        String(component).replacingOccurrences(of: "+", with: " ")
    }

    /// The value of `name`, `nil` when absent, or empty and `emptyMeansAbsent` (a cursor: clients
    /// of Slack-style APIs ask for the first page with `cursor=`).
    /// - Throws: 400 when it is given more than once, or empty otherwise.
    func text(_ name: String, emptyMeansAbsent: Bool = false) throws(APIError) -> String? {
        guard let value = values[name] else { return nil }
        guard !repeated.contains(name) else { throw .invalidQuery(name: name, message: "is given more than once") }
        guard !value.isEmpty else {
            if emptyMeansAbsent { return nil }
            throw .invalidQuery(name: name, message: "is empty; leave it out instead")
        }
        return value
    }

    /// The integer value of `name` within `range`, `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let raw = try text(name) else { return defaultValue }
        guard let value = Int(raw), range.contains(value) else {
            throw .invalidQuery(name: name, message: "'\(raw)' is not an integer between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    /// The integer value of a page parameter of kind `.integer`; `defaultValue`, when given, in
    /// place of the parameter's own default.
    func integer(_ parameter: PageParameter, default given: Int? = nil) throws(APIError) -> Int {
        guard case .integer(let range, let defaultValue) = parameter.kind else {
            preconditionFailure("\(parameter.name) is not an integer parameter")
        }
        return try integer(parameter.name, default: given ?? defaultValue, in: range)
    }
}
