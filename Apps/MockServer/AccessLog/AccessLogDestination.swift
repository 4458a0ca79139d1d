/// Where the request log goes: one line per request (see ``AccessLogEntry``).
public enum AccessLogDestination: Sendable {
    /// No request log (the library default, and `fresh-mock --quiet`).
    case off
    /// Standard error (the `fresh-mock` default).
    case standardError
    /// Each line handed to a function, in order, from one thread (for tests).
    case lines(@Sendable (String) -> Void)
}
