// MARK: - MockServerError

/// Why a mock server could not start.
public enum MockServerError: Error, CustomStringConvertible, Sendable {
    /// The service stopped without ever listening (and without reporting an error).
    case stoppedBeforeListening

    /// One sentence for a log or the command line.
    public var description: String {
        switch self {
        case .stoppedBeforeListening: "the server stopped before it was listening"
        }
    }
}
