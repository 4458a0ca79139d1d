import Foundation
import Synchronization

/// `--secondary-limit`: a limit no field states, as GitHub's secondary rate limits are: too many
/// requests in a short window (`N/WINDOW`), or too many at once (`concurrent=N`). A request over
/// it gets 403 with GitHub's message, no rate-limit fields and no `Retry-After`: the client has
/// to know to wait (GitHub asks for at least a minute, then exponential backoff).
public enum SecondaryLimit: Sendable, Equatable, CustomStringConvertible {
    /// At most this many requests in any window.
    case rate(RateLimit)
    /// At most this many requests in flight at once.
    case concurrent(Int)

    /// Parses `N/WINDOW` (as `--rate-limit`) or `concurrent=N`.
    public init(spec: String) throws(SpecError) {
        if spec.hasPrefix("concurrent=") {
            guard let count = Int(spec.dropFirst("concurrent=".count)), count > 0 else {
                throw SpecError("'\(spec)': concurrent=N needs a positive whole number")
            }
            self = .concurrent(count)
        } else {
            self = .rate(try RateLimit(spec: spec))
        }
    }

    public var description: String {
        switch self {
        case .rate(let limit): "\(limit)"
        case .concurrent(let count): "\(count) request\(count == 1 ? "" : "s") at once"
        }
    }

    /// GitHub's words for it, which a client may recognise.
    static let message = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
}

/// Enforces a ``SecondaryLimit``: ``admit()`` before a request, ``finish()`` after it when it was admitted.
final class SecondaryLimiter: Sendable {
    private struct State {
        var window: SlidingWindow?
        var inFlight = 0
    }

    private let limit: SecondaryLimit
    private let state: Mutex<State>
    private let clock = ContinuousClock()

    init(limit: SecondaryLimit) {
        self.limit = limit
        let window: SlidingWindow? = if case .rate(let rate) = limit { SlidingWindow(limit: rate) } else { nil }
        state = Mutex(State(window: window))
    }

    /// The refusal of a request over the limit, or `nil` when it may go on (and then counts as
    /// in flight until ``finish()``).
    func admit() -> APIError? {
        let now = clock.now
        let admitted = state.withLock { state -> Bool in
            switch limit {
            case .rate:
                guard case .admitted = state.window?.admit(at: now) else { return false }
            case .concurrent(let most):
                guard state.inFlight < most else { return false }
            }
            state.inFlight += 1
            return true
        }
        return admitted ? nil : .secondaryRateLimited(message: SecondaryLimit.message)
    }

    /// An admitted request has been answered.
    func finish() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Forgets the window (part of `/_admin/reset`).
    func clear() {
        state.withLock { $0.window?.clear() }
    }
}
