import Foundation

/// What an offline-first screen shows: the stored value (possibly stale, possibly absent)
/// and the status of the latest refresh.
public struct FetchState<Value: Sendable>: Sendable {
    /// The status of the remote side.
    public enum Status: Sendable, Equatable {
        /// No refresh has run yet; the value is whatever is stored.
        case idle
        /// A refresh is running; the stored value is shown meanwhile.
        case loading
        /// The latest refresh succeeded at this time.
        case refreshed(Date)
        /// The latest refresh failed; the stored value is still shown.
        case failed(FetchFailure)
    }

    /// What is stored locally (`nil` before anything could be read).
    public var value: Value?
    public var status: Status
}

/// Why a refresh failed, as a status line says it.
public struct FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line for the user.
    public var message: String
    /// Whether the origin could not be reached (as opposed to answering with an error).
    public var isOffline: Bool

    public init(message: String, isOffline: Bool) {
        self.message = message
        self.isOffline = isOffline
    }

    public var description: String { message }
}
