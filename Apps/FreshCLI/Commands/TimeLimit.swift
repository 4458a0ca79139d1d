import ArgumentParser

/// `--max-time SECONDS`: checked before any work starts, then turned into a `Duration`; 0 is
/// no limit, as in curl.
enum TimeLimit {
    /// The longest limit accepted: one day.
    static let maximumSeconds = 86_400.0

    static func validate(_ seconds: Double?) throws {
        guard let seconds else { return }
        guard seconds.isFinite, seconds >= 0, seconds <= maximumSeconds else {
            throw ValidationError("--max-time must be a number of seconds from 0 (no limit) to \(Int(maximumSeconds))")
        }
    }

    /// Whole milliseconds, at least one: a limit below a millisecond stays a limit; `nil` for
    /// none (no `--max-time`, or 0).
    static func duration(_ seconds: Double?) -> Duration? {
        guard let seconds, seconds > 0 else { return nil }
        return .milliseconds(max(1, Int((seconds * 1000).rounded())))
    }

    /// An interval as people type it: `30`, `30s`, `5m`, `1h`, `1.5h`; between one second and a day.
    static func interval(_ text: String) -> Duration? {
        guard let match = text.wholeMatch(of: /(\d+(?:\.\d+)?)([smh]?)/), let value = Double(match.1) else { return nil }
        let seconds = value * ["": 1, "s": 1, "m": 60, "h": 3600][String(match.2)]!
        guard seconds >= 1, seconds <= maximumSeconds else { return nil }
        return .milliseconds(Int(seconds * 1000))
    }
}
