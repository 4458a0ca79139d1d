import ArgumentParser

/// `--max-time SECONDS`: checked before any work starts, then turned into a `Duration`.
enum TimeLimit {
    /// The longest limit accepted: one day.
    static let maximumSeconds = 86_400.0

    static func validate(_ seconds: Double?) throws {
        guard let seconds else { return }
        guard seconds.isFinite, seconds > 0, seconds <= maximumSeconds else {
            throw ValidationError("--max-time must be a number of seconds between 0 and \(Int(maximumSeconds))")
        }
    }

    /// Whole milliseconds, rounded up: a limit below one millisecond is one, never none.
    static func duration(_ seconds: Double?) -> Duration? {
        seconds.map { .milliseconds(Int(($0 * 1000).rounded(.up))) }
    }
}
