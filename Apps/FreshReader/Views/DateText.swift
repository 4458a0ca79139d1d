import Foundation

/// Dates as the reader shows them, in the user's time zone on a 24-hour clock.
enum DateText {
    /// `14:03:21`: when a refresh finished.
    static func time(_ date: Date, timeZone: TimeZone) -> String {
        let parts = components(of: date, timeZone: timeZone)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    /// `2025-11-22 14:03`: when a post last changed.
    static func dateTime(_ date: Date, timeZone: TimeZone) -> String {
        let parts = components(of: date, timeZone: timeZone)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0)
    }

    private static func components(of date: Date, timeZone: TimeZone) -> DateComponents {
        Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: date)
    }
}
