import Foundation

extension Date {
    /// The date truncated to whole seconds, the resolution of HTTP dates.
    var inWholeSeconds: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
