/// The JSON body of every error the mock API sends: `{"error": {"code": "...", "message": "..."}}`;
/// a miss of a mirror (`not_recorded`) also names the recorded URL nearest the request and how it differs.
public struct APIErrorBody: Codable, Hashable, Sendable, Error {
    /// The inner object.
    public struct Detail: Codable, Hashable, Sendable {
        /// A short machine-readable code such as `not_found` or `invalid_field`.
        public var code: String
        /// One human-readable sentence.
        public var message: String
        /// A miss: the recorded URL nearest the request (on the origin), if any was recorded.
        public var nearest: String?
        /// A miss: what differs between the request and ``nearest`` (`parameter 'limit' is 50, recorded 20`).
        public var differences: [String]?
    }

    public var error: Detail

    public init(code: String, message: String, nearest: String? = nil, differences: [String]? = nil) {
        self.error = Detail(code: code, message: message, nearest: nearest, differences: differences)
    }
}
