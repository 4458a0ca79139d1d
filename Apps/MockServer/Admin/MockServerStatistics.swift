/// What `GET /_admin/stats` reports: how many requests, how they were answered, and how many
/// body bytes validators saved.
public struct MockServerStatistics: Codable, Sendable, Equatable {
    /// The counts of one route (`"GET /posts"`).
    public struct RouteStatistics: Codable, Sendable, Equatable {
        /// Requests to the route.
        public var requests: Int = 0
        /// Responses by status code, e.g. `["200": 5, "304": 3]`.
        public var byStatus: [String: Int] = [:]

        enum CodingKeys: String, CodingKey {
            case requests
            case byStatus = "by_status"
        }
    }

    /// Every request answered.
    public var totalRequests: Int = 0
    /// Responses by status code, e.g. `["200": 5, "304": 3]`.
    public var byStatus: [String: Int] = [:]
    /// Counts by `"METHOD /route/template"`; unknown paths count under `"METHOD (unmatched)"`.
    public var byRoute: [String: RouteStatistics] = [:]
    /// Requests that carried If-None-Match, If-Modified-Since, If-Match or If-Unmodified-Since.
    public var conditionalRequests: Int = 0
    /// 304 Not Modified responses.
    public var notModified: Int = 0
    /// Response body bytes written (HEAD and 304 count zero).
    public var bodyBytesSent: Int = 0
    /// Body bytes a 304 spared: the size of the representation the client already had.
    public var bytesSavedBy304: Int = 0
    /// API requests being answered now (this one not counted: admin routes are not API requests).
    public var inFlight: Int = 0
    /// The most API requests that were being answered at once: how many a client sent in
    /// parallel (a client asked to go one at a time keeps it at 1).
    public var maxInFlight: Int = 0

    /// Empty statistics: nothing answered yet.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case totalRequests = "total_requests"
        case byStatus = "by_status"
        case byRoute = "by_route"
        case conditionalRequests = "conditional_requests"
        case notModified = "not_modified"
        case bodyBytesSent = "body_bytes_sent"
        case bytesSavedBy304 = "bytes_saved_by_304"
        case inFlight = "in_flight"
        case maxInFlight = "max_in_flight"
    }

    // MARK: Recording

    /// Adds one answered request.
    mutating func record(route: String, status: Int, isConditional: Bool, bodyBytes: Int, bytesSaved: Int) {
        let code = String(status)
        totalRequests += 1
        byStatus[code, default: 0] += 1
        byRoute[route, default: RouteStatistics()].requests += 1
        byRoute[route, default: RouteStatistics()].byStatus[code, default: 0] += 1
        if isConditional { conditionalRequests += 1 }
        if status == 304 { notModified += 1 }
        bodyBytesSent += bodyBytes
        bytesSavedBy304 += bytesSaved
    }
}
