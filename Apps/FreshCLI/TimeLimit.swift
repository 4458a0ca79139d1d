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

    /// Whole milliseconds, at least one: a limit below a millisecond stays a limit.
    static func duration(_ seconds: Double?) -> Duration? {
        seconds.map { .milliseconds(max(1, Int(($0 * 1000).rounded()))) }
    }
}
