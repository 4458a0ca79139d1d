/// How many API requests the server allows in a sliding window of time (`--rate-limit 10/min`).
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    /// Requests allowed in any window.
    public var requests: Int
    /// The window's length.
    public var window: Duration

    /// A limit of `requests` per `window`; both must be positive.
    public init(requests: Int, window: Duration) {
        self.requests = requests
        self.window = window
    }

    /// Parses `N/WINDOW`, where WINDOW is an optional whole number and a unit: `ms`, `s`, `m`
    /// (`min`), `h`. Examples: `10/min`, `5/2s`, `100/1h`, `3/500ms`.
    public init(spec: String) throws(SpecError) {
        let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let requests = Int(parts[0]), requests > 0 else {
            throw SpecError("'\(spec)' is not N/WINDOW with N a positive whole number (e.g. 10/min, 5/2s)")
        }
        let window = parts[1]
        let digits = window.prefix { $0.isASCII && $0.isNumber }
        let unit = window.dropFirst(digits.count).lowercased()
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        let length: Duration
        switch unit {
        case "ms": length = .milliseconds(count)
        case "s", "sec", "second", "seconds": length = .seconds(count)
        case "m", "min", "minute", "minutes": length = .seconds(count * 60)
        case "h", "hour", "hours": length = .seconds(count * 3600)
        default: throw SpecError("'\(window)' is not a window such as min, 2s, 1h or 500ms")
        }
        guard count > 0, count <= 1_000_000 else { throw SpecError("the window of '\(spec)' must be positive") }
        self.init(requests: requests, window: length)
    }

    /// `10 requests per 1 min`.
    public var description: String {
        let milliseconds = Int(window / .milliseconds(1))
        let window = switch milliseconds {
        case let value where value % 3_600_000 == 0: "\(value / 3_600_000) h"
        case let value where value % 60_000 == 0: "\(value / 60_000) min"
        case let value where value % 1000 == 0: "\(value / 1000) s"
        default: "\(milliseconds) ms"
        }
        return "\(requests) request\(requests == 1 ? "" : "s") per \(window)"
    }
}
