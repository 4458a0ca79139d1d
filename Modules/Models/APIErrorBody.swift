/// The JSON body of every error the mock API sends: `{"error": {"code": "...", "message": "..."}}`.
public struct APIErrorBody: Codable, Hashable, Sendable, Error {
    /// The inner object.
    public struct Detail: Codable, Hashable, Sendable {
        /// A short machine-readable code such as `not_found` or `invalid_field`.
        public var code: String
        /// One human-readable sentence.
        public var message: String
    }

    public var error: Detail

    public init(code: String, message: String) { self.error = Detail(code: code, message: message) }
}
