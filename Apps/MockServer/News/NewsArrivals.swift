import Foundation

/// `--news-arrivals`: entries added to the front of `/news` while clients list it, so a listing
/// with page numbers or offsets moves under them as a busy feed does.
public struct NewsArrivals: Sendable, Equatable, CustomStringConvertible {
    /// When entries arrive.
    public enum Pace: Sendable, Equatable {
        /// Before each request to `/news`.
        case perRequest
        /// Every window of this length.
        case every(Duration)
    }

    /// Entries per request or per window.
    public var count: Int
    public var pace: Pace
    /// The most entries added in all; `nil` for no end.
    public var maximum: Int?

    public init(count: Int, pace: Pace, maximum: Int? = nil) {
        self.count = count
        self.pace = pace
        self.maximum = maximum
    }

    /// Parses `N/request`, `N/WINDOW` (a window as `--rate-limit` writes it), either followed by `,max=M`.
    public init(spec: String) throws(SpecError) {
        let parts = spec.split(separator: ",", maxSplits: 1).map(String.init)
        var maximum: Int?
        if parts.count == 2 {
            guard parts[1].hasPrefix("max="), let value = Int(parts[1].dropFirst(4)), value >= 0 else {
                throw SpecError("'\(parts[1])' is not max=M with M a whole number")
            }
            maximum = value
        }
        let rate = parts.first ?? ""
        if let slash = rate.firstIndex(of: "/"), ["request", "req"].contains(rate[rate.index(after: slash)...]) {
            guard let count = Int(rate[..<slash]), count > 0 else { throw SpecError("'\(rate)': N/request needs a positive N") }
            self.init(count: count, pace: .perRequest, maximum: maximum)
        } else {
            let limit = try RateLimit(spec: rate)
            self.init(count: limit.requests, pace: .every(limit.window), maximum: maximum)
        }
    }

    public var description: String {
        let pace = switch pace {
        case .perRequest: "before each request"
        case .every(let window): "every \(RateLimit(requests: 1, window: window).description.dropFirst("1 request per ".count))"
        }
        return "\(count) new \(count == 1 ? "entry" : "entries") \(pace)" + (maximum.map { ", \($0) at most" } ?? "")
    }

    /// How many entries are due in all after `requests` requests to `/news` (this one
    /// included), `elapsed` after the start.
    func due(afterRequests requests: Int, elapsed: Duration) -> Int {
        let due = switch pace {
        case .perRequest: requests * count
        case .every(let window): Int(elapsed / window) * count
        }
        return maximum.map { min(due, $0) } ?? due
    }
}
